import Glibc

/// Paths with their symbolic links resolved (`realpath(3)`), and the one question an export asks of them: does a
/// link on the way from a root to a folder under it lead out of the root?
///
/// ```
/// // out/a -> ../elsewhere
/// RealPath.linkLeaving(root: "/lib/out", toward: "/lib/out/a/2024")
///     // → Escape(link: "/lib/out/a", leadsTo: "/lib/elsewhere", root: "/lib/out")
/// ```
/// The root itself may be a link (`out -> /mnt/big/out`): its real path is the folder everything must stay under.
public enum RealPath {
    /// A link under a root whose real path is outside the root's.
    public struct Escape: Sendable, Equatable {
        /// The link, as the path leading to it is written (under the root).
        public var link: String
        /// Where it leads, resolved.
        public var leadsTo: String
        /// The root's real path.
        public var root: String
    }

    /// `path` with every link, `.` and `..` resolved; the path must exist.
    /// - Throws: `SystemError` (`realpath`): not found, a loop, a permission.
    public static func of(_ path: String) throws(SystemError) -> String {
        guard let resolved = NativePath.withCString(path, { realpath($0, nil) }) else {
            throw SystemError.last("realpath", path: path)
        }
        defer { free(resolved) }
        return NativePath.string(Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self),
                                                           count: strlen(resolved))))
    }

    /// The root's real path: of the root, or, while it does not exist yet, of the nearest folder above it that
    /// does, with the rest of the root's path after it (those folders will be made there).
    static func ofRoot(_ root: String) throws(SystemError) -> String {
        var existing = root
        var rest: [String] = []
        while true {
            do {
                let real = try of(existing)
                return rest.isEmpty ? real : (real == "/" ? "" : real) + "/" + rest.reversed().joined(separator: "/")
            } catch where error.notFound {
                let parent = Directory.parent(of: existing)
                guard parent != existing else { throw error }
                rest.append(String(existing.dropFirst(parent == "/" ? 1 : parent.count + 1)))
                existing = parent
            }
        }
    }

    /// The first link on the way from `root` to `folder` (a folder at or under `root`, both absolute and
    /// normalised) whose real path is not under the root's real path, or nil when every folder that exists on the
    /// way stays under it. Each component is looked at with `lstat`; a link is resolved whole (`realpath`), so a
    /// link to a link is followed to its end. The walk stops at the first component that does not exist (what
    /// `Directory.create` makes from there is made inside the folders already checked) or is not a folder or link
    /// (the write then fails on it).
    /// - Throws: `SystemError` when a path on the way cannot be looked at (a permission, a link loop).
    public static func linkLeaving(root: String, toward folder: String) throws(SystemError) -> Escape? {
        let realRoot = try ofRoot(root)
        let inside = realRoot == "/" ? "/" : realRoot + "/"
        guard folder != root else { return nil }
        let prefix = root == "/" ? "/" : root + "/"
        guard folder.hasPrefix(prefix) else {
            return Escape(link: folder, leadsTo: folder, root: realRoot)
        }
        var path = root
        for component in folder.dropFirst(prefix.count).split(separator: "/") {
            path = (path == "/" ? "" : path) + "/" + component
            let status: FileStatus
            do {
                status = try FileStatus(path, followingLinks: false)
            } catch where error.notFound {
                return nil
            }
            switch status.kind {
            case .directory: continue
            case .symbolicLink:
                let real: String
                do {
                    real = try of(path)
                } catch where error.notFound {
                    // A dangling link: where it would lead is not known until something is made there.
                    return Escape(link: path, leadsTo: "a path that does not exist", root: realRoot)
                }
                guard real.hasPrefix(inside) || real == realRoot else { return Escape(link: path, leadsTo: real, root: realRoot) }
            default: return nil
            }
        }
        return nil
    }
}
