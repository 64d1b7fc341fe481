import Foundation
import System
import Vips
import Media
import Catalogue

/// `import`: finds photos in folders and records them in the catalogue, identified by the SHA-256 of their bytes.
///
/// Originals are only ever opened read-only (`FileBytes`); in `mode: copy` album copies them into its own store.
public struct ImportStage: DeclaredOptions {
    public enum Mode: String, Sendable, CaseIterable {
        /// Originals stay where they are; the catalogue records their paths.
        case reference
        /// Originals are copied into the catalogue's `originals/` folder.
        case copy
    }

    /// Folders (or single files) to import from, absolute.
    public var from: [String] = []
    /// Descend into subfolders.
    public var recursive: Bool = true
    /// Globs on file names; a file is considered when it matches one. Default: the image extensions, every
    /// extension of the format table (`ImageFormat.registered`).
    public var include: [String] = ImageFormat.extensions().map { "*.\($0)" }
    /// Globs on file names to leave out.
    public var exclude: [String] = []
    /// Import at most this many files per run.
    public var limit: Int? = nil
    public var mode: Mode = .reference
    /// Follow symbolic links to files and folders (`follow-symlinks`). Off: links are skipped with a reason.
    /// On: loops are detected and a dangling link is a failure.
    public var followSymlinks: Bool = false
    /// What damaged data does (`on-damaged`): `fail` (the default) makes truncated or corrupt data an error for
    /// the photo, never a grey half-image; `warn` lets libvips decode what it can.
    public var onDamaged: OnDamaged = .fail
    /// Let libvips use the loaders it marks untrusted (`untrusted-loaders: allow`): ImageMagick and others that
    /// parse many formats and are not hardened against hostile files. Blocked by default.
    public var allowUntrustedLoaders: Bool = false
    /// The most pixels one photo may have (`max-pixels`, in megapixels), checked from the header before decoding.
    public var maxMegapixels: Int = 100
    /// Which file of a RAW+JPEG pair renders (`pair`): the JPEG (or HEIC), the RAW, or neither paired
    /// (`separate`: two photos, as before pairs). docs/catalogue.md, "Pairs".
    public var pair: Pair = .jpeg

    public enum OnDamaged: String, Sendable, CaseIterable { case fail, warn }

    /// The libvips `fail_on` level for `onDamaged`.
    public var failOn: FailOn { onDamaged == .fail ? .warning : .none }

    /// Metadata blobs larger than this are refused: a photo's EXIF, XMP or ICC is kilobytes, not tens of megabytes.
    public static let maxMetadataBytes = 16 << 20

    public init() {}

    /// Every option, declared once: the job file's keys, the parameters recorded with each import step, the docs.
    public static let options: [StageOption<ImportStage>] = [
        StageOption("from", .paths(\.from), required: true),
        .bool("recursive", \.recursive),
        .strings("include", \.include, documentedDefault: "the image extensions"),
        .strings("exclude", \.exclude),
        .integer("limit", \.limit, in: 1...Int(Int32.max)),
        .choice("mode", \.mode),
        .bool("follow-symlinks", \.followSymlinks),
        .choice("on-damaged", \.onDamaged),
        .integer("max-pixels", \.maxMegapixels, in: 1...10_000, unit: "megapixels"),
        StageOption("untrusted-loaders", .flag(\.allowUntrustedLoaders, on: "allow", off: "block")),
        .choice("pair", \.pair, unrecorded: .jpeg),
    ]

    /// Whether a file name passes `include` and `exclude` (case-insensitive).
    public func accepts(name: String) -> Bool { names.accepts(name: name) }

    /// Whether a movie's name passes `exclude` (case-insensitive): a Live Photo's movie is taken with its still
    /// whatever `include` says, and left out as any file is by `exclude`.
    package func accepts(movie name: String) -> Bool { names.accepts(movie: name) }

    /// Whether a file name matches one of the `include` patterns (case-insensitive).
    package func included(name: String) -> Bool { names.included(name: name) }

    /// `include` and `exclude`, read for matching (`NamePatterns`): the scan reads them once, for every file.
    package var names: NamePatterns { NamePatterns(include: include, exclude: exclude) }

    /// A name's extension, lowercased, as the ignored-files count groups them: "" for none.
    package static func fileExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// The entries to import, sorted by path, at most `limit`: every name that passes `include`/`exclude`,
    /// whatever it is (files, and the links, FIFOs, sockets and devices that `importFile` explains and skips);
    /// and the folders that could not be listed. Derived files (`DerivedFiles`: the catalogue folder, the job's
    /// export roots, files carrying album's export tag) are left out and counted, and so are the files that match
    /// no `include` pattern, by extension.
    /// - Parameter parallel: how a root's subfolders may be walked at once (the scheduler's threads); nil walks them
    ///   one after another. The result is the same either way.
    public func scan(skipping derived: DerivedFiles = DerivedFiles(), parallel: ParallelIndices? = nil) -> ImportScan {
        var scanner = FolderScanner(stage: self, derived: derived, parallel: parallel)
        for root in from { scanner.visit(root: root) }
        // The walk lists each folder in this order (`FolderScanner`): sorted already, unless a name is not ASCII (or
        // two names are one string). Else sorted by their indices, compared in place: no `String` a path
        // (`ScannedPaths`); each list in the walk's order freed once its sorted copy is made.
        var (sorted, sortedIdentities) = scanner.takeFound()
        if !sorted.isSorted {
            let order = sorted.indices.sorted { sorted.precedes($0, $1) }
            sorted = sorted.reordered(order)
            sortedIdentities = sortedIdentities.reordered(order)
        }
        var (files, seconds) = ImportStage.paired(sorted, pair: pair)
        let movies = scanner.movies.sorted()
        (files, seconds) = ImportStage.livePhotos(files, movies: movies, seconds: seconds, pair: pair)
        var identities = ImportStage.identities(of: files, among: sorted, sortedIdentities)
        var passedOver = scanner.passedOver
        let paired = Set(seconds.values)
        for movie in movies where !paired.contains(movie) { passedOver.ignored[ImportStage.fileExtension(of: movie), default: 0] += 1 }
        if let limit, files.count > limit {
            files.removeLast(files.count - limit)
            identities.removeLast(identities.count - limit)
        }
        let kept = scanner.sidecars.isEmpty ? [] : Set(files)  // a set of every file only where sidecars were found
        return ImportScan(files: files, unreadableFolders: scanner.unreadable, passedOver: passedOver,
                          foundPerRoot: scanner.foundPerRoot, seconds: seconds,
                          sidecars: ImportStage.sidecars(scanner.sidecars, of: kept, seconds: seconds), identities: identities)
    }

    /// The identities of `kept`, a subsequence of `all` (the second originals of pairs left out), from `all`'s.
    private static func identities(of kept: ScannedPaths, among all: ScannedPaths, _ identities: ScannedIdentities) -> ScannedIdentities {
        guard kept.count != all.count else { return identities }
        var result = ScannedIdentities(), index = 0
        for file in kept {
            while index < all.count, all[index] != file { index += 1 }
            // Never past the end: a file found out of order would be stat-ed by its import instead (nil).
            guard index < all.count else { result.append(nil); continue }
            result.append(identities[index])
            index += 1
        }
        return result
    }
}

/// `include` and `exclude` lowercased and read once, for the scan that asks of every file (`FolderScanner`): a pattern
/// `*.EXT` (no wildcard, bracket, escape or dot in EXT) is a lookup of the name's extension, which is what `fnmatch(3)`
/// says of it; any other pattern is `fnmatch(3)`'s (`Glob`). Names are matched lowercased, as the patterns.
package struct NamePatterns: Sendable {
    private var extensions: Set<String> = []
    private var includeGlobs: [Glob] = []
    private var excludeGlobs: [Glob] = []

    package init(include: [String], exclude: [String]) {
        for pattern in include.map({ $0.lowercased() }) {
            let rest = pattern.dropFirst(2)
            if pattern.hasPrefix("*."), !rest.isEmpty, !rest.contains(where: { "*?[]\\.".contains($0) }) {
                extensions.insert(String(rest))
            } else {
                includeGlobs.append(Glob(pattern))
            }
        }
        excludeGlobs = exclude.map { Glob($0.lowercased()) }
    }

    /// `ImportStage.accepts(name:)`: not hidden, matched by `include`, not by `exclude`.
    package func accepts(name: String) -> Bool {
        if name.utf8.first == UInt8(ascii: ".") { return false }  // hidden files, and album's own temporary files
        let lower = name.lowercased()
        return included(lower: lower) && !excluded(lower: lower)
    }

    /// `ImportStage.accepts(movie:)`: not hidden, not matched by `exclude`.
    package func accepts(movie name: String) -> Bool {
        name.utf8.first != UInt8(ascii: ".") && !excluded(lower: name.lowercased())
    }

    /// `ImportStage.included(name:)`: matched by `include`.
    package func included(name: String) -> Bool {
        included(lower: name.lowercased())
    }

    private func included(lower name: String) -> Bool {
        if !extensions.isEmpty, let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")),
           extensions.contains(String(name[name.utf8.index(after: dot)...])) {
            return true
        }
        return includeGlobs.contains { $0.matches(name) }
    }

    private func excluded(lower name: String) -> Bool {
        excludeGlobs.contains { $0.matches(name) }
    }
}
