import System
import Stages

/// Which folders `album watch` watches and which of their files it takes: the import stage's own rules, as its scan
/// (`FolderScanner`) applies them. Folders under a root when `recursive`, none hidden, none derived (the catalogue
/// folder, an export root below a root: `DerivedFiles`); files whose names pass `include` and `exclude`; and a root
/// that is a file, by its folder's events.
struct WatchScope {
    package let stage: any PhotoSource
    package let derived: DerivedFiles
    /// The roots of `from` that are folders, and those that are not (watched through their folder).
    let folderRoots: Set<String>
    let fileRoots: Set<String>

    package init(stage: any PhotoSource, derived: DerivedFiles) {
        self.stage = stage
        self.derived = derived
        let folders = stage.from.filter { FileStatus.of($0)?.isDirectory == true }
        folderRoots = Set(folders)
        fileRoots = Set(stage.from).subtracting(folders)
    }

    /// The folders to watch first: each folder root, and the folder of each file root.
    package var roots: [String] { folderRoots.sorted() + Set(fileRoots.map(Directory.parent)).subtracting(folderRoots).sorted() }

    /// Whether to watch `folder` (and look under it), as the scan would enter it.
    package func entering(_ folder: String) -> Bool {
        guard let info = FileStatus.of(folder), info.isDirectory else { return false }
        let isRoot = folderRoots.contains(folder)
        if !isRoot {
            let name = folder.split(separator: "/").last.map(String.init) ?? folder
            guard stage.recursive, !name.hasPrefix("."), folderRoots.contains(where: { folder.hasPrefix($0 + "/") }) else {
                // The folder of a file root is watched for that file's events only.
                return fileRoots.contains { Directory.parent(of: $0) == folder }
            }
        }
        return !derived.contains(folder: [info.device, UInt64(info.inode)], isRoot: isRoot)
    }

    /// Whether an event for the file at `path` concerns import: a file root, or a name the stage takes under a
    /// folder root, or an XMP sidecar there (events come only from folders `entering` allowed).
    package func takes(_ path: String) -> Bool {
        if fileRoots.contains(path) { return true }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        // An XMP sidecar is taken too: a batch's sidecar updates its photo's facts (`JobWatch`, `ImportScan.sidecars`).
        let sidecar = !name.hasPrefix(".") && name.lowercased().hasSuffix(".xmp")
        return (stage.accepts(name: name) || sidecar) && folderRoots.contains { path.hasPrefix($0 + "/") }
    }

    /// Whether the file carries album's export tag: one of album's own exports, never imported.
    func isDerived(_ path: String) -> Bool { derived.isTagged(path) }
}
