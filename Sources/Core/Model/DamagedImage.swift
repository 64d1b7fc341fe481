/// A photo's pixels could not be decoded: the original's bytes are damaged (truncated, corrupt), not the machine,
/// the encoder or the disk. `LookRenderer` throws it, and only it decides so (docs/catalogue.md, "A photo's life:
/// states"); the run records `reason` as the photo's `damage`, and later runs leave the photo alone until its bytes
/// change or `--retry-damaged`.
public struct DamagedImage: Error, Sendable, CustomStringConvertible {
    /// The sentence the failed step gives: the decoder's words, as `ErrorReason.of` says the underlying error.
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
