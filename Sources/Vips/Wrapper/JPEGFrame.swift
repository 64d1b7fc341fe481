import System

/// A JPEG's frame header (its SOF marker): the size and each component's sampling factors, which say how many DCT
/// coefficients the file holds. libvips 8.14 reports only "4:4:4" or "4:2:0" (`jpeg-chroma-subsample`), so a 4:2:2
/// file, common among cameras and wallpapers, would be counted a quarter short.
///
/// Only marker segments are walked, up to the first frame header: no entropy-coded data is read.
struct JPEGFrame: Equatable {
    struct Component: Equatable {
        var horizontal: Int
        var vertical: Int
    }

    var width: Int
    var height: Int
    var components: [Component]
    /// A progressive frame (SOF2, 6, 10 or 14): libjpeg keeps every coefficient until the last scan.
    var isProgressive = false

    /// The frame header of `bytes`, or nil when they are not a JPEG or no well-formed header comes before the
    /// first scan.
    init?(_ bytes: FileBytes) {
        guard let frame = bytes.withBytes({ JPEGFrame.parse($0) }) else { return nil }
        self = frame
    }

    init(width: Int, height: Int, components: [Component], isProgressive: Bool = false) {
        self.width = width
        self.height = height
        self.components = components
        self.isProgressive = isProgressive
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> JPEGFrame? {
        func byte(_ offset: Int) -> Int? { offset < bytes.count ? Int(bytes[offset]) : nil }
        func word(_ offset: Int) -> Int? { byte(offset).flatMap { high in byte(offset + 1).map { high << 8 | $0 } } }
        guard byte(0) == 0xFF, byte(1) == 0xD8 else { return nil }
        var offset = 2
        while let marker0 = byte(offset) {
            guard marker0 == 0xFF, var marker = byte(offset + 1) else { return nil }
            // Fill bytes: any number of 0xFF before a marker.
            while marker == 0xFF {
                offset += 1
                guard let next = byte(offset + 1) else { return nil }
                marker = next
            }
            // Markers without a length: TEM and RSTn; a scan (SOS) or the end (EOI) before a frame header ends it.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            guard marker != 0xDA, marker != 0xD9, let length = word(offset + 2), length >= 2 else { return nil }
            // SOF0-3, 5-7, 9-11, 13-15: C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let start = offset + 4
                guard let height = word(start + 1), let width = word(start + 3), let count = byte(start + 5),
                      count >= 1, length >= 8 + 3 * count else { return nil }
                var components: [Component] = []
                for index in 0..<count {
                    guard let sampling = byte(start + 6 + 3 * index + 1) else { return nil }
                    let horizontal = sampling >> 4, vertical = sampling & 0x0F
                    guard (1...4).contains(horizontal), (1...4).contains(vertical) else { return nil }
                    components.append(Component(horizontal: horizontal, vertical: vertical))
                }
                guard width > 0, height > 0 else { return nil }
                return JPEGFrame(width: width, height: height, components: components,
                                 isProgressive: [0xC2, 0xC6, 0xCA, 0xCE].contains(marker))
            }
            offset += 2 + length
        }
        return nil
    }

    /// The DCT coefficients libjpeg holds for the whole image when it must keep them all (a progressive file):
    /// each component in whole 8×8 blocks at its sampling, rounded up to whole MCUs, as `jdcoefct.c` allocates them.
    var coefficientCount: Int {
        let maxH = components.map(\.horizontal).max() ?? 1, maxV = components.map(\.vertical).max() ?? 1
        func divRoundUp(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
        func roundUp(_ a: Int, _ b: Int) -> Int { divRoundUp(a, b) * b }
        return components.reduce(0) { total, component in
            let blocksWide = divRoundUp(width * component.horizontal, maxH * 8)
            let blocksHigh = divRoundUp(height * component.vertical, maxV * 8)
            return total + roundUp(blocksWide, component.horizontal) * roundUp(blocksHigh, component.vertical) * 64
        }
    }
}
