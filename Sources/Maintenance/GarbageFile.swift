/// A file in the catalogue's own folders that nothing needs, or album's own leftover under a job's export roots:
/// what `album gc` removes.
public struct GarbageFile: Sendable, Equatable {
    /// Why a file is garbage.
    public enum Reason: String, Sendable {
        /// No rendition or photo row records it.
        case unreferenced = "no row refers to it"
        /// A temporary file album was writing when it stopped (`.NAME.album-XXXXXX`).
        case temporary = "an unfinished temporary file"

        /// The reason's one-word name, `album gc --json`'s `"reason"`: "unreferenced" or "temporary".
        public var name: String {
            switch self {
            case .unreferenced: "unreferenced"
            case .temporary: "temporary"
            }
        }
    }

    /// The path relative to the catalogue folder, e.g. "thumbnails/ab/ab12…-3b96abb4.jpg"; absolute for a file under
    /// an export root (`GarbageCollector.exportGarbage`).
    public var relativePath: String
    public var bytes: Int
    public var reason: Reason
}
