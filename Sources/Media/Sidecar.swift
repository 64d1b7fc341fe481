import System
import XMP

/// An XMP sidecar beside an original (`IMG_1.xmp` or `IMG_1.CR2.xmp` beside `IMG_1.CR2`), as Lightroom, darktable
/// and digiKam write them: read, never written, never imported as a photo.
public enum Sidecar {
    /// The largest sidecar album reads: a sidecar is kilobytes (a few hundred with a long edit history).
    public static let maxBytes = 4 << 20

    /// Whether a file name is a sidecar's: its extension is `xmp`, in any case.
    public static func isSidecar(name: String) -> Bool {
        // `.xmp` in any case, after at least one character: read as bytes (a scan asks of every name it lists, and a
        // `Character` search walks grapheme clusters).
        let bytes = name.utf8
        guard bytes.count > 4 else { return false }
        var last = bytes.suffix(4).makeIterator()
        return last.next() == UInt8(ascii: ".") && last.next().map { $0 | 0x20 } == UInt8(ascii: "x")
            && last.next().map { $0 | 0x20 } == UInt8(ascii: "m") && last.next().map { $0 | 0x20 } == UInt8(ascii: "p")
    }

    /// The sidecar of the file `name` among the names of its folder: `name.xmp` (the full name's convention, which
    /// wins when both are there) or the name with its extension replaced by `.xmp`; the extension in any case.
    ///
    /// ```
    /// Sidecar.of("IMG_1.CR2", among: ["IMG_1.CR2", "IMG_1.xmp", "IMG_1.CR2.XMP"])  // "IMG_1.CR2.XMP"
    /// Sidecar.of("IMG_1.CR2", among: ["IMG_1.CR2", "IMG_1.xmp"])                   // "IMG_1.xmp"
    /// ```
    /// `sidecars` maps a sidecar's name without its extension to its name, the folder's sidecars only.
    public static func of(_ name: String, among sidecars: [String: String]) -> String? {
        guard !sidecars.isEmpty else { return nil }  // most folders
        if let full = sidecars[name] { return full }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return sidecars[String(name[..<dot])]
    }

    /// The sidecar of a file given alone (a root of import that is a file, not a folder), by the names the
    /// conventions give it with `.xmp` or `.XMP`: the one case where no listing of its folder is at hand.
    public static func beside(file path: String) -> String? {
        let stem = path.lastIndex(of: ".").flatMap { dot in
            path[dot...].contains("/") ? nil : String(path[..<dot])
        }
        for candidate in [path] + (stem.map { [$0] } ?? []) {
            for ext in [".xmp", ".XMP"] where FileStatus.of(candidate + ext) != nil { return candidate + ext }
        }
        return nil
    }

    /// Every sidecar among `sidecars` that names the file `name` by either convention: the one `of` reads, and one
    /// it shadows (`IMG_1.xmp` beside `IMG_1.CR2.xmp`), which is still this file's, never an ignored file.
    public static func candidates(of name: String, among sidecars: [String: String]) -> [String] {
        guard !sidecars.isEmpty else { return [] }
        let stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : String(name[..<$0]) }
        return [sidecars[name], stem.flatMap { sidecars[$0] }].compactMap { $0 }
    }

    /// A folder's sidecars by their names without the `.xmp` extension (the first by name when two differ only in
    /// the extension's case).
    public static func byStem(_ names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names.filter({ isSidecar(name: $0) && !$0.hasPrefix(".") }).sorted() {
            let stem = String(name.dropLast(4))
            if result[stem] == nil { result[stem] = name }
        }
        return result
    }

    /// The packet in the sidecar at `path`.
    /// - Throws: `XMPError` with the reason in words: unreadable (the system's reason), over `maxBytes`, not
    ///   well-formed XML (libxml2's message and line), or not XMP.
    public static func read(_ path: String) throws -> XMPPacket {
        let bytes: FileBytes
        do {
            bytes = try FileBytes(path: path, maxBytes: maxBytes)
        } catch let error as FileBytesError {
            if let size = FileStatus.of(path)?.size, size > maxBytes {
                throw XMPError(reason: "it is \(size) bytes, over the \(maxBytes >> 20) MB album reads of a sidecar")
            }
            throw XMPError(reason: "cannot read it: \(error.reason)")
        }
        return try XMPPacket(parsing: bytes.withBytes { Array($0) })
    }
}
