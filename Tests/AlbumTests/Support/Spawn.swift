import Foundation
import XCTest

/// The built `album` started with `posix_spawn`, its descriptors 0–2 set up as a test asks (closed, a file such
/// as /dev/full, or a pipe the test holds), and its end read with `waitpid`, so a test can tell an exit status from
/// a death by signal. Foundation's `Process` cannot close a child's stdout, nor say which signal ended it.
struct Spawn {
    /// What one of the child's descriptors 0–2 is.
    enum Descriptor {
        /// Closed when album starts.
        case closed
        /// A file opened with these flags (`/dev/full`, `/dev/null`, a log file).
        case file(String, flags: Int32)
        /// A descriptor of the test's (a pipe's end), duplicated onto the child's.
        case descriptor(Int32)

        static let null = Descriptor.file("/dev/null", flags: O_RDWR)
        static let full = Descriptor.file("/dev/full", flags: O_WRONLY)
        static func log(_ path: String) -> Descriptor { .file(path, flags: O_WRONLY | O_CREAT | O_TRUNC) }
    }

    /// How the child ended.
    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let number): "signal \(number)"
            }
        }
    }

    let pid: pid_t

    /// Starts `album arguments…` in `folder` (through `/bin/sh`, which changes directory and then execs album, so
    /// the pid is album's).
    init(_ arguments: [String], in folder: String, stdin: Descriptor = .null, stdout: Descriptor, stderr: Descriptor) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, descriptor) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch descriptor {
            case .closed: posix_spawn_file_actions_addclose(&actions, number)
            case .file(let path, let flags): posix_spawn_file_actions_addopen(&actions, number, path, flags, 0o644)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, number)
            }
        }
        let command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder, TestSupport.albumBinary] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        self.pid = pid
    }

    /// Waits for the child to end.
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        // <sys/wait.h>'s macros: WIFEXITED is (status & 0x7f) == 0, WEXITSTATUS is (status >> 8) & 0xff.
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// A pipe whose ends are closed in any child (`O_CLOEXEC`) unless duplicated onto its 0–2.
    static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        // pipe2(O_CLOEXEC) is not exported to Swift; the tests start no process between these two calls.
        guard Glibc.pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}

/// Lines read from a descriptor as they come, with read(2) and no read-ahead past what is asked for.
final class LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// The next whole line, without its newline; nil at end of file. `byteByByte` reads one byte at a time, so
    /// that nothing after the line is taken out of the pipe.
    func next(byteByByte: Bool = false) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard !ended else {
                defer { buffer = [] }
                return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: byteByByte ? 1 : 65_536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { ended = true } else { buffer += chunk[..<count] }
        }
    }

    /// Every line left, to end of file.
    func rest() -> [String] {
        var lines: [String] = []
        while let line = next() { lines.append(line) }
        return lines
    }
}
