import Foundation
import System

/// A folder that missing photos' originals were under, and that is itself gone or empty: an unmounted share or a
/// moved library, not photos a user deleted one by one. `album prune` keeps such photos unless told
/// (`--forget-unreachable`), and says why.
public struct UnreachableFolder: Sendable, Equatable {
    public enum Why: String, Sendable {
        /// The folder does not exist (a moved or renamed library).
        case gone = "not there"
        /// The folder exists and holds nothing (an unmounted share's mount point).
        case empty = "empty"
        /// The folder cannot be listed (a permission), so album cannot tell whether the originals are gone.
        case unreadable = "not readable"
    }

    /// The folder, absolute: the original's own folder when it is empty or unreadable, else the highest folder above
    /// it that is gone (or the empty folder that held it).
    public var folder: String
    public var why: Why
    /// The ids of the missing photos under it.
    public var photos: [String] = []

    /// The unreachable folder a missing original at `path` was under, or nil when its folder is there and holds
    /// other files (the original itself was deleted).
    ///
    /// `/mnt/nas/2024/a.jpg` with `/mnt/nas` empty (the share not mounted) gives `/mnt/nas`, empty; with `/home/u`
    /// there and `/home/u/Photos` gone (the library moved), `/home/u/Photos/2024/a.jpg` gives `/home/u/Photos`, gone.
    public static func of(original path: String) -> UnreachableFolder? {
        let own = (path as NSString).deletingLastPathComponent
        if FileStatus.of(own)?.isDirectory == true { return check(own) }
        var child = own
        var parent = (own as NSString).deletingLastPathComponent
        while parent != child, FileStatus.of(parent)?.isDirectory != true {
            child = parent
            parent = (parent as NSString).deletingLastPathComponent
        }
        return check(parent) ?? UnreachableFolder(folder: child, why: .gone)
    }

    /// `folder` when it is empty or cannot be listed; nil when it holds something.
    private static func check(_ folder: String) -> UnreachableFolder? {
        let listing = Directory.entries(of: folder)
        if listing.failure != nil { return UnreachableFolder(folder: folder, why: .unreadable) }
        return listing.names.isEmpty ? UnreachableFolder(folder: folder, why: .empty) : nil
    }
}
