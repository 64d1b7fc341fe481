/// A 3×3 colour matrix whose entries are linear in one number, as the W3C Filter Effects matrices are:
/// `entry = base + slope·t`. Rows are output channels R, G, B.
///
/// ```
/// ColourMatrix(base: …, slope: …).at(1 - amount)   // sepia's `0.393 + 0.607k`, … with k = 1 − amount
/// ```
public struct ColourMatrix: Sendable {
    public let base: [[Double]]
    public let slope: [[Double]]

    /// The matrix at `t`: each entry `base + slope·t`, computed as the formulas write it.
    public func at(_ t: Double) -> [[Double]] {
        zip(base, slope).map { base, slope in zip(base, slope).map { $0 + $1 * t } }
    }
}
