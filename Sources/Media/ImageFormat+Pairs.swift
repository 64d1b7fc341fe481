extension ImageFormat {
    /// The extensions of camera RAW files, lowercased: the RAW half of a RAW+JPEG pair (docs/catalogue.md, "Pairs"),
    /// the extensions of the format table's RAW rows (`isRaw`).
    public static let rawExtensions: Set<String> = Set(registered.filter(\.isRaw).flatMap(\.extensions))

    /// The extensions of the files a camera writes beside a RAW as its rendered picture, lowercased: the JPEG and
    /// HEIC rows' (the other half of a pair).
    public static let pairedPictureExtensions: Set<String> = Set(
        registered.filter { $0.rawValue == "jpeg" || $0.rawValue == "heif" }.flatMap(\.extensions))

    /// The extensions of a Live Photo's movie, lowercased: the QuickTime file an iPhone writes beside its HEIC or
    /// JPEG (docs/catalogue.md, "Live Photos").
    public static let liveMovieExtensions: Set<String> = ["mov"]

    /// Whether the file at `path` is a Live Photo's movie by its name (its extension is a movie's): how a photo's
    /// second original that is its motion part is told from a RAW+JPEG pair's other file.
    public static func isLiveMovie(path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return liveMovieExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The name a pair's file of extension `ext` is recorded under (`second_originals.format`): its format row's
    /// name, or for a RAW the extension itself (`dng`, `cr2`).
    public static func pairedFormatName(fileExtension ext: String) -> String {
        let lower = ext.lowercased()
        return registered.first { $0.extensions.contains(lower) }?.rawValue ?? lower
    }
}
