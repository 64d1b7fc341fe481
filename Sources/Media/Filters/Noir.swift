import Foundation
import Vips

/// Black and white with punch: Rec. 709 luminance, then an S-curve that deepens shadows and lifts highlights.
///
/// ```
/// Y  = 0.2126 R + 0.7152 G + 0.0722 B              (on 8-bit sRGB values)
/// x  = Y / 255
/// s  = x + contrast · (smoothstep(x) − x),  smoothstep(x) = 3x² − 2x³
/// Y' = round(255 · s)
/// ```
/// `contrast` 0 is plain luminance; 1 is the full smoothstep curve. Mid-grey (128) stays put.
public struct Noir: FilterPrimitive {
    public static let spec = FilterSpec(Noir(), "noir", .number("contrast", \.contrast, in: 0...1))
    public var contrast: Double = 0.6

    /// The S-curve as a 256-entry table.
    public var curve: [UInt8] {
        (0..<256).map { level in
            let x = Double(level) / 255
            let s = x + contrast * ((3 * x * x - 2 * x * x * x) - x)
            return UInt8(max(0, min(255, (255 * s).rounded())))
        }
    }

    public func apply(to image: Image) throws -> Image {
        let luminance = [0.2126, 0.7152, 0.0722]
        return try image.recombined([luminance, luminance, luminance]).mapped(through: curve)
    }
}
