import Foundation
import System

/// The one mapping from an error to the sentence a user reads: a step's failure, a folder that cannot be created.
///
/// album's own errors are sentences already (`StageError`, `AtomicFileError`, `FileBytesError`, … print their
/// message), and so are the wrappers' (`VipsError` says "libvips thumbnail failed: …"); Foundation's file errors are reduced to their POSIX reason, as `ls`
/// would say it:
/// ```
/// ErrorReason.of(StageError("its header claims an empty image (0×0)"))  // "its header claims an empty image (0×0)"
/// ErrorReason.of(CocoaError(.fileWriteNoPermission, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: 13)]))
///                                                                        // "Permission denied"
/// ```
/// The path the error concerns is reported beside the sentence, not in it.
public enum ErrorReason {
    /// The sentence for `error`.
    public static func of(_ error: any Error) -> String {
        switch error {
        case let error as POSIXError:
            return SystemError.reason(for: error.code.rawValue)
        case let error as CocoaError:
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                return SystemError.reason(for: Int32(underlying.code))
            }
            return error.localizedDescription
        default:
            return "\(error)"
        }
    }
}
