import Foundation
import Vips

/// `import`: finds photos in folders and records them in the catalogue, identified by the SHA-256 of their bytes.
///
/// Originals are only ever opened read-only (`FileBytes`); in `mode: copy` album copies them into its own store.
public struct ImportStage: Sendable {
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
    /// Globs on file names; a file is considered when it matches one. Default: the image extensions.
    public var include: [String] = ImportStage.imageExtensions.map { "*.\($0)" }
    /// Globs on file names to leave out.
    public var exclude: [String] = []
    /// Import at most this many files per run.
    public var limit: Int? = nil
    public var mode: Mode = .reference
    /// How much damage the decoder tolerates before a photo fails (the `on-damaged` option grows from this).
    public var failOn: FailOn = .truncated

    /// Extensions considered by default, matched without regard to case. Content decides the format, not these.
    public static let imageExtensions = ["jpg", "jpeg", "jpe", "png", "webp", "heic", "heif", "avif", "tif", "tiff", "gif", "jxl"]

    public init() {}

    /// Every option with its value, recorded as each import step's parameters.
    public var parameters: JSONValue {
        .object([
            ("from", .array(from.map { .string($0) })), ("recursive", .bool(recursive)),
            ("include", .array(include.map { .string($0) })), ("exclude", .array(exclude.map { .string($0) })),
            ("limit", .int(limit)), ("mode", .string(mode.rawValue)),
        ])
    }

    /// Whether a file name passes `include` and `exclude` (case-insensitive).
    func accepts(name: String) -> Bool {
        if name.hasPrefix(".") { return false }  // hidden files, and album's own temporary files
        let lower = name.lowercased()
        guard include.contains(where: { fnmatch($0.lowercased(), lower, 0) == 0 }) else { return false }
        return !exclude.contains { fnmatch($0.lowercased(), lower, 0) == 0 }
    }

    /// The files to import, sorted by path, at most `limit`.
    public func scan() -> [String] {
        var found: [String] = []
        for root in from {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else {
                found.append(root)  // reported as a failure by `importFile`, with the reason
                continue
            }
            if !isFolder.boolValue { found.append(root); continue }
            collect(folder: root, into: &found)
        }
        found.sort()
        if let limit, found.count > limit { found.removeLast(found.count - limit) }
        return found
    }

    private func collect(folder: String, into found: inout [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() {
            let path = folder == "/" ? "/" + name : folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if recursive && !name.hasPrefix(".") { collect(folder: path, into: &found) }
            default:
                if accepts(name: name) { found.append(path) }
            }
        }
    }
}
