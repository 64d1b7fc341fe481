/// An import root that cannot be what the user meant: one that does not exist (exit 2, like a job-file error), or
/// a folder that is empty where the catalogue knows photos from it, as an unmounted share is (exit 1).
public struct SourceError: Error, Sendable, Equatable {
    public var message: String
    public var exitCode: ExitCode

    public init(_ message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }
}
