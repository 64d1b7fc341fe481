/// A libraw call failed: which call, on which file, and libraw's own words (`libraw_strerror`).
public struct RawError: Error, Sendable, CustomStringConvertible {
    /// The libraw call that failed, e.g. "open" (identify), "unpack" or "dcraw_process".
    public var operation: String
    /// libraw's error code (`LibRaw_errors`).
    public var code: Int32
    /// libraw's text for `code`.
    public var message: String
    /// The file libraw was reading.
    public var file: String

    public init(operation: String, code: Int32, message: String, file: String) {
        self.operation = operation
        self.code = code
        self.message = message
        self.file = file
    }

    /// What went wrong, in libraw's words, e.g. "libraw 0.20.2 cannot unpack it: Input/output error".
    public var reason: String { "libraw \(RawFile.version) cannot \(operation) it: \(message)" }

    public var description: String { "\(file): \(reason)" }

    /// Whether libraw says the bytes are not a RAW it knows (`LIBRAW_FILE_UNSUPPORTED`), not that a RAW is damaged.
    public var isUnsupported: Bool { code == -2 }
}
