@testable import Media


/// The registered formats by name, for tests that compare a sniffed format: the product looks rows up in
/// `ImageFormat.registered` and names none of them in code.
extension ImageFormat {
    static let jpeg = ImageFormat(rawValue: "jpeg")!
    static let png = ImageFormat(rawValue: "png")!
    static let webp = ImageFormat(rawValue: "webp")!
    static let heif = ImageFormat(rawValue: "heif")!
    static let avif = ImageFormat(rawValue: "avif")!
    static let tiff = ImageFormat(rawValue: "tiff")!
    static let gif = ImageFormat(rawValue: "gif")!
    static let jxl = ImageFormat(rawValue: "jxl")!
}
