import Foundation

/// Runs a system tool (`sqlite3`, `sha256sum`) beside album, so that a test's checks do not go through the code
/// under test.
enum Tool {
    /// Runs `command` (a path or a name found on PATH, then its arguments) and returns its status and output.
    @discardableResult
    static func run(_ command: [String], through wrapper: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = wrapper + command
        if !wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: wrapper[0])
            process.arguments = Array(wrapper.dropFirst()) + command
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()  // tools here write little: no deadlock
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// The `sqlite3` command-line tool's answer to `sql` on `database`, read through `immutable=1` so that not even a
    /// `-wal` or `-shm` file is created, unless `writing`.
    static func sqlite(_ database: String, _ sql: String, writing: Bool = false) throws -> String {
        let target = writing ? database : "file:\(database)?immutable=1"
        let result = try run(["sqlite3"] + (writing ? [] : ["-readonly"]) + [target, sql])
        return (result.stdout + result.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The SHA-256 of a file, from coreutils' `sha256sum`.
    static func sha256(_ path: String) throws -> String {
        String(try run(["sha256sum", path]).stdout.prefix(64))
    }

    /// `listing(folder)` without the SQLite files a reader may leave beside a database it never changed: its `-shm`
    /// and an empty `-wal` (a reader's close never checkpoints). A `-wal` with commits in it is still listed.
    static func listingBesideAReadersLog(_ folder: String) throws -> [String] {
        try listing(folder).filter { entry in
            !(entry.contains(".db-shm ") || entry.hasSuffix(".db-wal 0"))
        }
    }

    /// Every entry under `folder`, with its size, sorted: to show that nothing was created, removed or resized.
    static func listing(_ folder: String) throws -> [String] {
        let manager = FileManager.default
        return try manager.subpathsOfDirectory(atPath: folder).sorted().map { name in
            let size = (try? manager.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? -1
            return "\(name) \(size)"
        }
    }
}
