/// What became of one file `album prune` meant to delete.
public enum PrunedFile: Sendable, Equatable {
    /// Deleted (or, in a dry run, would be), freeing `bytes`.
    case deleted(bytes: Int)
    /// Already gone.
    case gone
    /// Left where it is, and why: another catalogue's export, an export changed since album wrote it, not a file.
    case kept(String)
    /// It could not be deleted, and why.
    case failed(String)
}
