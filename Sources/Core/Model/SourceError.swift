/// A file or folder the user named that cannot be what they meant: a job file that does not exist or cannot be
/// read, or an import root that does not exist (exit 2, like a job-file error), or an import folder that is empty
/// where the catalogue knows photos from it, as an unmounted share is (exit 1).
public struct SourceError: Error, Sendable, Equatable {
    public var message: String
    public var exitCode: ExitCode

    public init(_ message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }
}
