/// What `Directory.entries(of:)` found: the names, and why the listing is incomplete when it is.
public struct DirectoryListing: Sendable, Equatable {
    /// The entries' names, sorted, without `.` and `..`.
    public var names: [String]
    /// Why the folder could not be listed (or not to the end); nil when every entry was read.
    public var failure: SystemError?
}
