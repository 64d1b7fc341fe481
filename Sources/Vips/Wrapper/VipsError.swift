import Foundation
import System

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

    /// libvips' text on one line (its lines joined with "; "), with its "VipsForeignLoad: " style prefixes kept,
    /// and a fallback when libvips said nothing.
    ///
    /// libvips 8.14 tries its other loaders when the format's own loader rejects the bytes; for damaged TIFFs that is
    /// ImageMagick, which album blocks as untrusted, and libvips then reports only "magickload_buffer: operation is
    /// blocked". That line is replaced by what it means.
    public var reason: String {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let shortage = VipsError.memoryShortage(in: lines) { return shortage }
        guard !lines.isEmpty else {
            return "libvips gave no reason (its one error buffer is shared by the whole process: another photo failing at the same moment may have taken the text; run with --workers 1 to see it)"
        }
        return lines.map { line in
            line.hasSuffix("operation is blocked") && line.hasPrefix("magickload")
                ? "no trusted libvips loader reads these bytes (damaged, truncated, or a variant of the format libvips does not read; the ImageMagick fallback is blocked as untrusted)"
                : line
        }.joined(separator: "; ")
    }

    /// The sentence a user reads (`ErrorReason.of` prints it): "libvips thumbnail failed: …".
    public var description: String { "libvips \(operation) failed: \(reason)" }

    /// Whether libvips failed for want of memory or a thread (`reason` then begins "not enough memory"), not
    /// because of what it was given: a failure of the machine, never a damaged image.
    public var isMemoryShortage: Bool {
        VipsError.memoryShortage(in: message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }) != nil
    }

    /// "not enough memory: …" with the address-space limit, when libvips' text is an allocation or a thread that
    /// failed: `vips_tracked_malloc`'s "out of memory", libjpeg's "Insufficient memory", GLib's "Error creating
    /// thread" (a thread stack is an 8 MB mapping), `ENOMEM`'s "Cannot allocate memory". libvips' own text follows.
    static func memoryShortage(in lines: [String]) -> String? {
        let thread = lines.contains { $0.contains("Error creating thread") || $0.contains("unable to create thread") }
        guard thread || lines.contains(where: { line in
            ["out of memory", "Out of memory", "Insufficient memory", "Cannot allocate memory"].contains { line.contains($0) }
        }) else { return nil }
        let what = thread ? "could not start a libvips thread" : "an allocation failed"
        let limit = AddressSpace.limitDescription.map { "\($0); " } ?? ""
        return "not enough memory: \(what) (\(limit)run fewer --workers, a lower --memory-budget, or raise the limit)"
            + "; libvips: " + lines.joined(separator: "; ")
    }
}
