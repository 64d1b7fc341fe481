import Foundation
import Synchronization
import System
import Media
import Catalogue

/// Walks import's folders by raw directory entries (so names that are not UTF-8 survive, see `NativePath`),
/// never opening a file, never following a link unless asked, and never visiting a folder twice. Derived files
/// (`DerivedFiles`) are counted and left out, and so are the names that match no `include` pattern, by extension.
struct FolderScanner {
    package let stage: ImportStage
    package let derived: DerivedFiles
    /// The stage's `include` and `exclude`, read once for every file of the walk.
    private let patterns: NamePatterns
    /// The entries found, in the walk's order, kept compactly (`ScannedPaths`: a library's scan holds every path).
    package private(set) var found = ScannedPaths()
    /// Each of `found`'s identity from the walk's stat, in the same order (`ImportScan.identities`).
    package private(set) var identities = ScannedIdentities()
    package private(set) var passedOver = PassedOver()
    package private(set) var foundPerRoot: [String: Int] = [:]
    /// Each found file's XMP sidecar (`Sidecar.of`), from the listing of its folder the walk already has.
    package private(set) var sidecars: [String: String] = [:]
    /// Files no `include` pattern takes whose extension is a Live Photo movie's (`ImageFormat.liveMovieExtensions`),
    /// not excluded: `ImportStage.livePhotos` pairs each with its still; the scan counts the rest as ignored.
    package private(set) var movies: [String] = []
    /// Folders that could not be listed (permissions, too many open files, I/O errors): nothing in them is imported,
    /// and the run says so instead of finishing as if they were empty.
    package private(set) var unreadable: [UnreadableFolder] = []
    /// Folders visited, by device and inode, so that followed links cannot loop: one set for every scanner of the
    /// walk, the subfolders' included (`walk`).
    private let visited: VisitedFolders
    /// How a root's subfolders may be walked at once (`ParallelIndices`); nil: one after another.
    private let parallel: ParallelIndices?

    package init(stage: ImportStage, derived: DerivedFiles = DerivedFiles(), parallel: ParallelIndices? = nil) {
        self.init(stage: stage, derived: derived, visited: VisitedFolders(), parallel: parallel)
    }

    private init(stage: ImportStage, derived: DerivedFiles, visited: VisitedFolders, parallel: ParallelIndices?) {
        self.stage = stage
        self.derived = derived
        self.patterns = stage.names
        self.visited = visited
        self.parallel = parallel
    }

    /// A root of `from`: a folder is walked; anything else is one entry (`importFile` says what it is), unless it
    /// carries album's export tag.
    mutating func visit(root: String) {
        let before = found.count
        if let info = FileStatus.of(root), info.isDirectory {
            walk(root, identity: [info.device, UInt64(info.inode)], depth: 0)
        } else if derived.isTagged(root) {
            passedOver.derived += 1
        } else {
            found.append(root)
            identities.append(nil)  // import says what a root that is not a folder is
            if let sidecar = Sidecar.beside(file: root) { sidecars[root] = sidecar }
        }
        foundPerRoot[root, default: 0] += found.count - before
    }

    private mutating func walk(_ folder: String, identity: [UInt64], depth: Int) {
        guard visited.insert(identity), depth < 256 else { return }  // a loop through followed links
        if derived.contains(folder: identity, isRoot: depth == 0) {
            countDerived(in: folder, depth: depth)
            return
        }
        let names = entries(of: folder)
        // A sidecar is never a photo: it is read with the file it describes, and counted as ignored only when no
        // file found here has it.
        let sidecarsHere = Sidecar.byStem(names)
        var claimed: Set<String> = [], sidecarFiles: Set<String> = []
        // A root's subfolders are walked after its own files, on every processor at once (`walk(_:)`), and what
        // they find is put where the one walk would have found it (at `found`'s and `movies`' counts as each is met);
        // deeper ones are walked in place.
        var subfolders: [Subfolder] = []
        let here = found.folder(folder == "/" ? "/" : folder + "/")  // the folder of the files found here, kept once
        // Each name is stat-ed, and a file's tag read, relative to the folder held open (one name's path walk, not
        // the whole path's); by path when it cannot be opened. Held open while its subfolders are walked (as deep as
        // the library, under 256).
        let open = OpenFolder(folder)
        var listed: [(name: String, info: FileStatus)] = []
        for name in names {
            guard var info = status(of: name, in: folder, open, followingLinks: false) else { continue }
            if info.isSymbolicLink && stage.followSymlinks, let target = status(of: name, in: folder, open, followingLinks: true) {
                info = target
            }
            listed.append((name, info))
        }
        // In the order import's scan sorts paths (a folder's own paths sort as its name and a "/"), so that a walk of
        // names in ASCII finds them sorted and the scan makes no sorted copy of its lists (`ImportStage.scan`).
        listed.sort { ($0.info.isDirectory ? $0.name + "/" : $0.name) < ($1.info.isDirectory ? $1.name + "/" : $1.name) }
        for (name, info) in listed {
            // Made only where a path is kept or asked for: most files are found by their name and folder alone.
            var path: String { FolderScanner.path(of: name, in: folder) }
            if info.isDirectory {
                if stage.recursive && !name.hasPrefix(".") {
                    if depth == 0 {
                        subfolders.append(Subfolder(path: path, identity: [info.device, UInt64(info.inode)],
                                                    foundBefore: found.count, moviesBefore: movies.count))
                    } else {
                        walk(path, identity: [info.device, UInt64(info.inode)], depth: depth + 1)
                    }
                }
            } else if Sidecar.isSidecar(name: name) {
                sidecarFiles.insert(name)  // read with its photo, or counted below when no photo has it
            } else if patterns.accepts(name: name) {
                if info.isRegular && (open.map { derived.isTagged(name, in: $0) } ?? derived.isTagged(path)) {
                    passedOver.derived += 1
                } else {
                    found.append(name: name, folder: here)
                    // The stat import's entry makes (`ImportStage.entry(atPath:)`): lstat, then stat through a
                    // followed link. Anything but a regular file is left to import to explain.
                    identities.append(info.isRegular ? FileIdentity(info) : nil)
                    if let sidecar = Sidecar.of(name, among: sidecarsHere) {
                        sidecars[path] = FolderScanner.path(of: sidecar, in: folder)
                    }
                    claimed.formUnion(Sidecar.candidates(of: name, among: sidecarsHere))  // the one read, and one it shadows
                }
            } else if !name.hasPrefix("."), !patterns.included(name: name) {
                if ImageFormat.liveMovieExtensions.contains(ImportStage.fileExtension(of: name)), patterns.accepts(movie: name) {
                    movies.append(path)  // a Live Photo's movie when a still has its name, else counted as ignored
                } else {
                    passedOver.ignored[ImportStage.fileExtension(of: name), default: 0] += 1
                }
            }
        }
        for sidecar in sidecarFiles.intersection(sidecarsHere.values).subtracting(claimed) where patterns.accepts(name: sidecar) || !patterns.included(name: sidecar) {
            passedOver.ignored[ImportStage.fileExtension(of: sidecar), default: 0] += 1
        }
        walk(subfolders)
    }

    /// A root's subfolder, and how many files and movies the walk had found when it met it.
    private struct Subfolder {
        var path: String
        var identity: [UInt64]
        var foundBefore: Int
        var moviesBefore: Int
    }

    /// Walks a root's subfolders, several at a time when the caller gives a way to (`parallel`): the scan of a large
    /// library is stats of its files, which two processors make in about half the time of one. Each is walked by a scanner of its own, sharing `visited`,
    /// and what each found is put where the one walk would have found it, so the result is that walk's. With links
    /// followed they are walked one after another, so a folder two of them lead to is the first name's, as in one
    /// walk; without, only a bind mount shows a folder twice, and then it is walked under the first to reach it.
    /// Each subfolder's lists are joined as soon as those before it are (`Joining`), and then freed: the scan's lists
    /// are never held twice.
    private mutating func walk(_ subfolders: [Subfolder]) {
        guard !subfolders.isEmpty else { return }
        let template = FolderScanner(stage: stage, derived: derived, visited: visited, parallel: nil)
        let own = Own(found: found, identities: identities, movies: movies)
        var start = self
        (start.found, start.identities, start.movies) = (ScannedPaths(), ScannedIdentities(), [])
        (found, identities, movies) = (ScannedPaths(), ScannedIdentities(), [])
        let joining = Mutex(Joining(result: start))
        let walk = { @Sendable (index: Int) in
            var scanner = template
            scanner.walk(subfolders[index].path, identity: subfolders[index].identity, depth: 1)
            joining.withLock { joining in
                joining.waiting[index] = scanner
                while let next = joining.waiting.removeValue(forKey: joining.next) {
                    joining.result.join(next, at: subfolders[joining.next], own: own, after: &joining.own)
                    joining.next += 1
                }
            }
        }
        if let parallel, subfolders.count > 1, !stage.followSymlinks {
            parallel(subfolders.count, walk)
        } else {
            // Links followed, two subfolders may lead to one folder: walked in order, it is the first name's.
            for index in subfolders.indices { walk(index) }
        }
        var result = joining.withLock { joining in
            var result = joining.result
            result.join(nil, at: Subfolder(path: "", identity: [], foundBefore: own.found.count, moviesBefore: own.movies.count),
                        own: own, after: &joining.own)
            joining.result = template
            return result
        }
        swap(&self, &result)
    }

    /// A root's own files, movies and stats, found before its subfolders were walked.
    private struct Own: Sendable {
        var found: ScannedPaths
        var identities: ScannedIdentities
        var movies: [String]
    }

    /// The root's walk as its subfolders' walks end: what is joined so far, and the subfolders walked but not joined
    /// yet (one waits for those before it).
    private struct Joining: Sendable {
        var result: FolderScanner
        var waiting: [Int: FolderScanner] = [:]
        var next = 0
        /// How many of the root's own files and movies are joined.
        var own = (found: 0, movies: 0)
    }

    /// Appends the root's own files and movies met before `folder`, then what `scanner` found under it.
    private mutating func join(_ scanner: FolderScanner?, at folder: Subfolder, own: Own, after joined: inout (found: Int, movies: Int)) {
        found.append(own.found, joined.found..<folder.foundBefore)
        identities.append(own.identities, joined.found..<folder.foundBefore)
        movies += own.movies[joined.movies..<folder.moviesBefore]
        joined = (folder.foundBefore, folder.moviesBefore)
        guard let scanner else { return }
        found.append(contentsOf: scanner.found)
        identities.append(scanner.identities, scanner.identities.indices)
        movies += scanner.movies
        passedOver.derived += scanner.passedOver.derived
        passedOver.ignored.merge(scanner.passedOver.ignored, uniquingKeysWith: +)
        sidecars.merge(scanner.sidecars, uniquingKeysWith: { first, _ in first })
        unreadable += scanner.unreadable
    }

    /// `found` and `identities`, taken out: the scanner keeps neither.
    package mutating func takeFound() -> (ScannedPaths, ScannedIdentities) {
        defer { (found, identities) = (ScannedPaths(), ScannedIdentities()) }
        return (found, identities)
    }

    /// The path of `name` in `folder`.
    private static func path(of name: String, in folder: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }

    /// The status of `name` in `folder`: relative to the folder when it is held `open`, else by its path.
    private func status(of name: String, in folder: String, _ open: OpenFolder?, followingLinks: Bool) -> FileStatus? {
        if let open { return try? open.status(of: name, followingLinks: followingLinks) }
        return try? FileStatus(FolderScanner.path(of: name, in: folder), followingLinks: followingLinks)
    }

    /// Counts the files import would have considered under a derived folder, taking none of them.
    private mutating func countDerived(in folder: String, depth: Int) {
        guard depth < 256 else { return }
        for name in Directory.entries(of: folder).names where !name.hasPrefix(".") {
            let path = FolderScanner.path(of: name, in: folder)
            guard let info = try? FileStatus(path, followingLinks: false) else { continue }
            if info.isDirectory {
                if stage.recursive { countDerived(in: path, depth: depth + 1) }
            } else if patterns.accepts(name: name), !Sidecar.isSidecar(name: name) {
                passedOver.derived += 1
            }
        }
    }

    /// The names in a folder, raw bytes carried through `NativePath`. A folder that cannot be listed, or stops being
    /// listable half way, is recorded in `unreadable` with the system's reason.
    private mutating func entries(of folder: String) -> [String] {
        let listing = Directory.entries(of: folder)
        if let failure = listing.failure { unreadable.append(UnreadableFolder(path: folder, reason: failure.reason)) }
        return listing.names
    }
}

/// The folders a scan visited, by device and inode, shared by the scanners of its subfolders.
private final class VisitedFolders: Sendable {
    private let folders = Mutex<Set<[UInt64]>>([])

    /// Whether `identity` was not visited yet; it is from now on.
    func insert(_ identity: [UInt64]) -> Bool {
        folders.withLock { $0.insert(identity).inserted }
    }
}

/// A folder import could not list, and why (`strerror`): none of its photos were imported.
public struct UnreadableFolder: Sendable, Equatable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
