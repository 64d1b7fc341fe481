import Media

/// RAW+JPEG pairs among the files import found (docs/catalogue.md, "Pairs"): in one folder, a camera RAW and a JPEG
/// or HEIC with the same name but for the extension (case-insensitive: `IMG_1.CR2` and `IMG_1.JPG`) are one photo
/// with two originals. `pair:` chooses which one renders (`jpeg`, the default, or `raw`); `separate` pairs nothing.
/// A name with more than one RAW or more than one JPEG/HEIC is left unpaired: each file is a photo of its own.
extension ImportStage {
    /// `files` with each pair's second original taken out, and for each pair its rendered file's path → its second
    /// original's path. `files` keep their order.
    public static func paired(_ files: ScannedPaths, pair: Pair) -> (files: ScannedPaths, seconds: [String: String]) {
        guard pair != .separate else { return (files, [:]) }
        // The RAWs' names first, then only the pictures that share one: a library without RAWs keeps no entry per
        // photo (Benchmarks/INVESTIGATION.md, section 25).
        var raws: [String: [String]] = [:], pictures: [String: [String]] = [:]
        // The extension read from each name's bytes: a path is made only for a RAW.
        for index in files.indices where ImageFormat.rawExtensions.contains(files.fileExtension(at: index)) {
            let file = files[index]
            guard let (key, _) = pairKey(of: file) else { continue }
            raws[key, default: []].append(file)
        }
        guard !raws.isEmpty else { return (files, [:]) }
        for file in files {
            guard let (key, ext) = pairKey(of: file), raws[key] != nil, ImageFormat.pairedPictureExtensions.contains(ext) else { continue }
            pictures[key, default: []].append(file)
        }
        var seconds: [String: String] = [:], taken = Set<String>()
        for (key, raw) in raws {
            guard raw.count == 1, let picture = pictures[key], picture.count == 1 else { continue }
            let (rendered, second) = pair == .raw ? (raw[0], picture[0]) : (picture[0], raw[0])
            seconds[rendered] = second
            taken.insert(second)
        }
        return (taken.isEmpty ? files : files.kept { !taken.contains($0) }, seconds)
    }

    /// A file's folder and its name without the extension, the name lowercased (what the two files of a pair
    /// share), and its extension, lowercased; nil for a name without one.
    static func pairKey(of path: String) -> (String, String)? {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return (String(path[..<slash]) + name[..<dot].lowercased(), String(name[name.index(after: dot)...]).lowercased())
    }

    /// Whether `path`'s extension, lowercased, is one of `extensions`: `pairKey`'s extension without its key, so a
    /// library with no file of a pair's kind makes no key per file.
    static func hasPairExtension(_ path: String, in extensions: Set<String>) -> Bool {
        extensions.contains(fileExtension(ofPath: path))
    }

    /// The extension of the file name `path` ends with, lowercased; "" for a name without one (or only a leading
    /// dot), as `fileExtension(of:)` has it. Read from the path's UTF-8 bytes, backwards: a `Character` search walks
    /// grapheme clusters, and the scan asks twice a file (Benchmarks/INVESTIGATION.md, section 38).
    static func fileExtension(ofPath path: String) -> String {
        let bytes = path.utf8
        var index = bytes.endIndex
        while index > bytes.startIndex {
            let before = bytes.index(before: index)
            switch bytes[before] {
            case UInt8(ascii: "/"):
                return ""
            case UInt8(ascii: "."):
                guard before > bytes.startIndex, bytes[bytes.index(before: before)] != UInt8(ascii: "/") else { return "" }
                return String(path[index...]).lowercased()
            default:
                index = before
            }
        }
        return ""
    }

    /// Each file to import's XMP sidecar: its own, else, for a pair's rendered file, its second original's (a
    /// darktable `IMG_1.CR2.xmp` beside a pair that renders IMG_1.JPG). The scan found them in its listings.
    static func sidecars(_ found: [String: String], of kept: Set<String>, seconds: [String: String]) -> [String: String] {
        var sidecars: [String: String] = [:]
        guard !found.isEmpty else { return sidecars }
        for file in kept {
            if let sidecar = found[file] ?? seconds[file].flatMap({ found[$0] }) { sidecars[file] = sidecar }
        }
        return sidecars
    }

    /// `pair:`: which file of a RAW+JPEG pair renders (`ImportStage.paired`).
    public enum Pair: String, Sendable, CaseIterable {
        /// The JPEG (or HEIC) renders; the RAW is the photo's second original.
        case jpeg
        /// The RAW renders; the JPEG (or HEIC) is the second original.
        case raw
        /// No pairs: each file is a photo of its own (as before pairs).
        case separate
    }
}
