import Raw
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
                    decoder: HEIFDecoder(), encoder: nil, metadata: [.exif, .xmp, .icc], embedded: .thumbnail),
        ImageFormat(name: "avif", extensions: ["avif"], signatures: [.isoBrand(["avif", "avis"])],
                    decoder: HEIFDecoder(), encoder: .avif, metadata: [.exif, .xmp, .icc], embedded: .thumbnail),
        // A TIFF is a file with TIFF's magic that libraw does not identify as a camera RAW (most RAWs are TIFFs).
        ImageFormat(name: "tiff", extensions: ["tif", "tiff"], signatures: [.all([.tiff, .not(.camera(.any))])],
                    decoder: VipsLoader(), encoder: .tiff, metadata: [.exif, .xmp, .icc]),
        ImageFormat(name: "gif", extensions: ["gif"], signatures: [.bytes(Array("GIF87a".utf8)), .bytes(Array("GIF89a".utf8))],
                    decoder: VipsLoader(), encoder: nil, metadata: []),
        ImageFormat(name: "jxl", extensions: ["jxl"],
                    signatures: [.bytes([0xFF, 0x0A]), .bytes([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])],
                    decoder: VipsLoader(), encoder: nil, metadata: [.exif, .xmp, .icc]),
        // Camera RAWs, read by libraw. Those built on TIFF are told apart by libraw's identify (`CameraMatch`); the
        // others by their own magic.
        ImageFormat(name: "dng", extensions: ["dng"], signatures: [.all([.tiff, .camera(.dng)])],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "cr2", extensions: ["cr2"],
                    signatures: [.all([.tiff, .camera(.maker(["Canon"]))])],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "cr3", extensions: ["cr3"], signatures: [.isoBrand(["crx "])],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "nef", extensions: ["nef", "nrw"], signatures: [.all([.tiff, .camera(.maker(["Nikon"]))])],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "arw", extensions: ["arw", "srf", "sr2"], signatures: [.all([.tiff, .camera(.maker(["Sony"]))])],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "raf", extensions: ["raf"], signatures: [.bytes(Array("FUJIFILMCCD-RAW".utf8))],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "orf", extensions: ["orf"],
                    signatures: [.bytes(Array("IIRO".utf8)), .bytes(Array("IIRS".utf8)), .bytes(Array("MMOR".utf8))],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "rw2", extensions: ["rw2", "rwl"], signatures: [.bytes([0x49, 0x49, 0x55, 0x00])],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "pef", extensions: ["pef"], signatures: [.all([.tiff, .camera(.maker(["Pentax", "Ricoh"]))])],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        ImageFormat(name: "srw", extensions: ["srw"], signatures: [.all([.tiff, .camera(.maker(["Samsung"]))])],
                    decoder: RawDecoder(), encoder: nil, metadata: [.exif, .xmp], kind: .cameraRaw, embedded: .preview),
        // Videos, read by FFmpeg: a poster frame stands for the pixels. QuickTime's own brand, or an old QuickTime
        // file with no `ftyp` (its first box a `moov`, `mdat` or `wide`); MP4 by the ISO brands writers use.
        ImageFormat(name: "mov", extensions: ["mov", "qt"],
                    signatures: [.isoBrand(["qt  "]), .bytes(Array("moov".utf8), at: 4), .bytes(Array("mdat".utf8), at: 4),
                                 .bytes(Array("wide".utf8), at: 4)],
                    decoder: VideoDecoder(), encoder: nil, metadata: [], kind: .video, opensByPath: true),
        ImageFormat(name: "mp4", extensions: ["mp4", "m4v"], signatures: [.isoBrand(["isom", "iso2", "mp41", "mp42", "avc1", "M4V "])],
                    decoder: VideoDecoder(), encoder: nil, metadata: [], kind: .video, opensByPath: true),
    ]
}
