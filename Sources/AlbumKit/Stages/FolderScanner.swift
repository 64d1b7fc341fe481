import Foundation
import Vips

/// Walks import's folders by raw directory entries (so names that are not UTF-8 survive, see `NativePath`),
/// never opening a file, never following a link unless asked, and never visiting a folder twice.
struct FolderScanner {
    let stage: ImportStage
    private(set) var found: [String] = []
    /// Folders that could not be listed (permissions, too many open files, I/O errors): nothing in them is imported,
    /// and the run says so instead of finishing as if they were empty.
    private(set) var unreadable: [UnreadableFolder] = []
    /// Folders visited, by device and inode, so that followed links cannot loop.
    private var visited: Set<[UInt64]> = []

    init(stage: ImportStage) { self.stage = stage }

    /// A root of `from`: a folder is walked; anything else is one entry (`importFile` says what it is).
    mutating func visit(root: String) {
        var info = stat()
        let exists = NativePath.withCString(root) { stat($0, &info) } == 0
        if exists && (info.st_mode & S_IFMT) == S_IFDIR {
            walk(root, identity: [UInt64(info.st_dev), UInt64(info.st_ino)], depth: 0)
        } else {
            found.append(root)
        }
    }

    private mutating func walk(_ folder: String, identity: [UInt64], depth: Int) {
        guard visited.insert(identity).inserted, depth < 256 else { return }  // a loop through followed links
        for name in entries(of: folder) {
            let path = folder == "/" ? "/" + name : folder + "/" + name
            var info = stat()
            guard NativePath.withCString(path, { lstat($0, &info) }) == 0 else { continue }
            var kind = info.st_mode & S_IFMT
            if kind == S_IFLNK && stage.followSymlinks {
                var target = stat()
                if NativePath.withCString(path, { stat($0, &target) }) == 0 {
                    info = target
                    kind = target.st_mode & S_IFMT
                }
            }
            if kind == S_IFDIR {
                if stage.recursive && !name.hasPrefix(".") {
                    walk(path, identity: [UInt64(info.st_dev), UInt64(info.st_ino)], depth: depth + 1)
                }
            } else if stage.accepts(name: name) {
                found.append(path)
            }
        }
    }

    /// The names in a folder, raw bytes carried through `NativePath`. A folder that cannot be listed, or stops being
    /// listable half way, is recorded in `unreadable` with the system's reason.
    private mutating func entries(of folder: String) -> [String] {
        let (opened, openError) = NativePath.withCString(folder) { path in (opendir(path), errno) }
        guard let directory = opened else {
            unreadable.append(UnreadableFolder(path: folder, reason: String(cString: strerror(openError))))
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { unreadable.append(UnreadableFolder(path: folder, reason: String(cString: strerror(errno)))) }
                break
            }
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                NativePath.string(Array(raw.prefix { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

/// A folder import could not list, and why (`strerror`): none of its photos were imported.
public struct UnreadableFolder: Sendable, Equatable {
    public var path: String
    public var reason: String
}
