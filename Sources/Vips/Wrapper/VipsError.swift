/// A libvips operation failed. `message` is libvips' own text; `operation` and `file` are album's context.
public struct VipsError: Error, Sendable, CustomStringConvertible {
    /// The libvips operation that failed, e.g. "thumbnail" or "jpegsave".
    public var operation: String
    /// libvips' error text, copied out of its global buffer.
    public var message: String
    /// The file the operation was working on, when there is one.
    public var file: String?

    public init(operation: String, message: String, file: String? = nil) {
        self.operation = operation
        self.message = message
        self.file = file
    }

    /// libvips' text with its "VipsForeignLoad: " style prefixes kept, and a fallback when libvips said nothing.
    public var description: String {
        let text = message.isEmpty ? "libvips gave no reason" : message.replacingOccurrences(of: "\n", with: "; ")
        return "\(operation) failed: \(text)"
    }
}
