import Glibc

/// A plain HDR → SDR tone map of a frame libswscale turned into 16-bit R′G′B′ (PQ or HLG encoded, BT.2020 or
/// BT.709 primaries): libswscale has no tone mapping (FFmpeg's are the `zscale`/`tonemap` filters, outside the
/// libraries album links), so it is done here, per pixel, with tables made once.
///
/// Each sample is linearised through a 1024-entry table (its top 10 bits) to light relative to BT.2408's reference
/// white of 203 nits (PQ: SMPTE ST 2084's EOTF; HLG: ARIB STD-B67's inverse OETF with the 1.2 system gamma of a
/// 1000-nit display, per channel), turned from BT.2020 primaries to BT.709's (BT.2087's matrix) when the stream's
/// are BT.2020, rolled off above 0.75 (below it light is kept as it is, so mid-tones look as the SDR clip's; above
/// it the extended Reinhard curve takes 1000 nits to white with no kink at the knee), and encoded as sRGB through a
/// 4096-entry table. Greys stay grey: each channel goes through the same curve.
///
/// The loop is straight-line arithmetic on `Float`s with table look-ups, no allocation and no branch per pixel.
public struct ToneMap: Sendable {
    /// The transfer a stream's samples are encoded with: what `AVCOL_TRC_*` says.
    public enum Transfer: Sendable, Equatable { case pq, hlg }

    /// The display peak the curve takes to white, relative to reference white (1000 nits / 203 nits).
    static let peak: Float = 1000 / 203
    /// Where the roll-off starts, in linear light relative to reference white.
    static let knee: Float = 0.75

    private let linear: [Float]
    private let gamut: Bool

    /// - Parameters:
    ///   - transfer: how the samples are encoded.
    ///   - bt2020: whether the primaries are BT.2020's (turned to BT.709's); false keeps them.
    public init(_ transfer: Transfer, bt2020: Bool) {
        linear = transfer == .pq ? ToneMap.pqTable : ToneMap.hlgTable
        gamut = bt2020
    }

    private static let pqTable = (0..<1024).map { ToneMap.toLinear(Double($0) / 1023, .pq) }
    private static let hlgTable = (0..<1024).map { ToneMap.toLinear(Double($0) / 1023, .hlg) }

    /// sRGB's encoding of linear light 0…1, 4096 steps.
    private static let encode: [UInt8] = (0..<4096).map { index in
        let v = Double(index) / 4095
        let s = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
        return UInt8(max(0, min(255, (s * 255).rounded())))
    }

    /// Light relative to 203 nits for an encoded value `e` in 0…1.
    static func toLinear(_ e: Double, _ transfer: Transfer) -> Float {
        switch transfer {
        case .pq:
            let m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875
            let p = pow(e, 1 / m2)
            return Float(10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1) / 203)
        case .hlg:
            let a = 0.17883277, b = 0.28466892, c = 0.55991073
            let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
            return Float(1000 * pow(scene, 1.2) / 203)
        }
    }

    /// The curve for one channel: `x` below the knee, the extended Reinhard roll-off of what is above it (slope 1
    /// at the knee, `peak` to 1).
    @inline(__always)
    static func curve(_ x: Float) -> Float {
        let above = max(x - knee, 0) / (1 - knee)
        let white = (peak - knee) / (1 - knee)
        let rolled = above * (1 + above / (white * white)) / (1 + above)
        return min(x, knee) + (1 - knee) * min(rolled, 1)
    }

    /// `count` pixels of packed 16-bit R′G′B′ (native byte order) tone-mapped into packed 8-bit sRGB.
    public func apply(_ source: UnsafePointer<UInt16>, into target: UnsafeMutablePointer<UInt8>, count: Int) {
        linear.withUnsafeBufferPointer { linear in
            ToneMap.encode.withUnsafeBufferPointer { encode in
                let m: (Float, Float, Float, Float, Float, Float, Float, Float, Float) = gamut
                    ? (1.6605, -0.5876, -0.0728, -0.1246, 1.1329, -0.0083, -0.0182, -0.1006, 1.1187)
                    : (1, 0, 0, 0, 1, 0, 0, 0, 1)
                for pixel in 0..<count {
                    let i = pixel * 3
                    let r = linear[Int(source[i] >> 6)], g = linear[Int(source[i + 1] >> 6)], b = linear[Int(source[i + 2] >> 6)]
                    let outR = ToneMap.curve(max(0, m.0 * r + m.1 * g + m.2 * b))
                    let outG = ToneMap.curve(max(0, m.3 * r + m.4 * g + m.5 * b))
                    let outB = ToneMap.curve(max(0, m.6 * r + m.7 * g + m.8 * b))
                    target[i] = encode[Int(outR * 4095)]
                    target[i + 1] = encode[Int(outG * 4095)]
                    target[i + 2] = encode[Int(outB * 4095)]
                }
            }
        }
    }
}
