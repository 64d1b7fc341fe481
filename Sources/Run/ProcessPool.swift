import Dispatch
import Foundation
import Synchronization
import System

/// Child processes run at most `limit` at a time, each started as soon as one ends: the local engine's chunks
/// (`album run --distribute local`). The scheduler's folder holds it because it is concurrency, like the workers.
///
/// A child inherits album's standard streams. A first SIGINT or SIGTERM reaches the children from the terminal
/// (one process group); a pool that was asked to stop (`stop()`) starts no new child.
package final class ProcessPool: Sendable {
    package let limit: Int
    private let stopped = Mutex(false)

    package init(limit: Int) { self.limit = max(1, limit) }

    /// Starts no new child; those running finish (or take the signal themselves).
    package func stop() { stopped.withLock { $0 = true } }

    /// Runs `executable` with each argument list and returns the exit statuses in order: a child that could not
    /// start is 127, one never started after `stop()` is nil, one killed by a signal is 128 + the signal.
    /// `finished` is called (on any thread, one call at a time) as each child ends, with its index, its status and
    /// how many children have exited 0 so far.
    /// `logs`, when given, names the file each child's stdout and stderr go to (created or emptied).
    package func run(_ executable: String, _ argumentLists: [[String]], logs: [String]? = nil, environment: [String: String]? = nil,
             finished: @escaping @Sendable (_ index: Int, _ status: Int32, _ succeeded: Int) -> Void = { _, _, _ in }) -> [Int32?] {
        let statuses = Mutex([Int32?](repeating: nil, count: argumentLists.count))
        let succeeded = Mutex(0)
        let slots = DispatchSemaphore(value: limit)
        let group = DispatchGroup()
        let report = DispatchQueue(label: "album.process-pool")
        for (index, arguments) in argumentLists.enumerated() {
            slots.wait()
            if stopped.withLock({ $0 }) {
                slots.signal()
                break
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let environment { process.environment = environment }
            if let log = logs?[index] {
                // A log that cannot be made leaves the chunk's output on album's own streams, where it is seen.
                if let descriptor = try? OutputFile.create(log) {
                    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                    process.standardOutput = handle
                    process.standardError = handle
                }
            }
            group.enter()
            process.terminationHandler = { ended in
                let status = ended.terminationReason == .uncaughtSignal ? 128 + ended.terminationStatus : ended.terminationStatus
                statuses.withLock { $0[index] = status }
                let count = succeeded.withLock { count in
                    if status == 0 { count += 1 }
                    return count
                }
                report.sync { finished(index, status, count) }
                slots.signal()
                group.leave()
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                statuses.withLock { $0[index] = 127 }
                report.sync { finished(index, 127, succeeded.withLock { $0 }) }
                slots.signal()
                group.leave()
            }
        }
        group.wait()
        return statuses.withLock { $0 }
    }

    /// Runs `command` (looked up on PATH) to its end and returns its status and trimmed stdout and stderr, read side
    /// by side so that neither pipe fills: how album talks to `sbatch` and `kubectl`.
    /// - Throws: when it cannot start.
    package static func capture(_ command: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = Mutex(Data())
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let trim = { (data: Data) in String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        return (process.terminationStatus, trim(outData), trim(errData.withLock { $0 }))
    }
}
