import Foundation
import Vips

/// A gamma curve on 8-bit sRGB values: above 1 lifts the mid-tones, below 1 darkens them; black and white stay.
///
/// ```
/// V' = round(255 · (V / 255)^(1 / gamma))        for V = R, G, B
/// ```
/// (the same direction as libvips' `gamma` and most photo editors). A 256-entry lookup table; alpha is kept.
public struct Gamma: FilterPrimitive {
    public static let spec = FilterSpec(Gamma(), "gamma", .number("gamma", \.gamma, in: 0.1...10))
    /// 1 changes nothing.
    public var gamma: Double = 1.0

    /// The curve as a 256-entry table.
    public var curve: [UInt8] {
        (0..<256).map { level in
            UInt8(max(0, min(255, (255 * pow(Double(level) / 255, 1 / gamma)).rounded())))
        }
    }

    public func apply(to image: Image) throws -> Image {
        try image.mapped(through: curve)
    }
}
