import Vips

extension ImageFormat {
    /// Every format album knows, one row each, in the order import's default `include` lists their extensions.
    /// Adding a format is one row here.
    public static let registered: [ImageFormat] = [
        ImageFormat(name: "jpeg", extensions: ["jpg", "jpeg", "jpe"], signatures: [.bytes([0xFF, 0xD8, 0xFF])],
                    decoder: VipsLoader(), encoder: .jpeg, metadata: [.exif, .xmp, .icc]),
        ImageFormat(name: "png", extensions: ["png"], signatures: [.bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])],
                    decoder: VipsLoader(), encoder: .png, metadata: [.exif, .xmp, .icc]),
        ImageFormat(name: "webp", extensions: ["webp"], signatures: [.all([.bytes(Array("RIFF".utf8)), .bytes(Array("WEBP".utf8), at: 8)])],
                    decoder: VipsLoader(), encoder: .webp, metadata: [.exif, .xmp, .icc]),
        ImageFormat(name: "heif", extensions: ["heic", "heif"],
                    signatures: [.isoBrand(["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"])],
                    decoder: VipsLoader(), encoder: nil, metadata: [.exif, .xmp, .icc]),
        ImageFormat(name: "avif", extensions: ["avif"], signatures: [.isoBrand(["avif", "avis"])],
                    decoder: VipsLoader(), encoder: .avif, metadata: [.exif, .xmp, .icc]),
        ImageFormat(name: "tiff", extensions: ["tif", "tiff"], signatures: [.bytes([0x49, 0x49, 0x2A, 0x00]), .bytes([0x4D, 0x4D, 0x00, 0x2A])],
                    decoder: VipsLoader(), encoder: .tiff, metadata: [.exif, .xmp, .icc]),
        ImageFormat(name: "gif", extensions: ["gif"], signatures: [.bytes(Array("GIF87a".utf8)), .bytes(Array("GIF89a".utf8))],
                    decoder: VipsLoader(), encoder: nil, metadata: []),
        ImageFormat(name: "jxl", extensions: ["jxl"],
                    signatures: [.bytes([0xFF, 0x0A]), .bytes([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])],
                    decoder: VipsLoader(), encoder: nil, metadata: [.exif, .xmp, .icc]),
    ]
}
