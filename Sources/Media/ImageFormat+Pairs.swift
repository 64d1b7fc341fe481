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

    /// The name a pair's file of extension `ext` is recorded under (`second_originals.format`): its format row's
    /// name, or for a RAW the extension itself (`dng`, `cr2`).
    public static func pairedFormatName(fileExtension ext: String) -> String {
        let lower = ext.lowercased()
        return registered.first { $0.extensions.contains(lower) }?.rawValue ?? lower
    }
}
