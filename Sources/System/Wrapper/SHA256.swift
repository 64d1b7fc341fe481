internal import CCrypto
import Glibc

/// SHA-256 through libcrypto (OpenSSL's EVP interface). album never hand-writes cryptography.
///
/// Every `EVP_Digest*` call's return code is checked where it is made (1 is success, as evp.h documents); a failure
/// throws a `SystemError` naming the call and libcrypto's own reason (`ERR_get_error`), or ENOMEM when
/// `EVP_MD_CTX_new` could not allocate. A failed hasher is never finalized into a wrong digest.
///
/// ```
/// var hasher = try SHA256()
/// try hasher.update(bytes)
/// let hex = try hasher.finalizeHex()   // 64 lower-case hex digits
/// ```
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    /// - Throws: `SystemError` when libcrypto cannot make or start a SHA-256 context.
    public init() throws {
        guard let context = EVP_MD_CTX_new() else { throw SystemError("EVP_MD_CTX_new", code: ENOMEM) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            let error = SHA256.failure("EVP_DigestInit_ex")
            EVP_MD_CTX_free(context)
            throw error
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    /// - Throws: `SystemError` when `EVP_DigestUpdate` fails.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { throw SHA256.failure("EVP_DigestUpdate") }
    }

    /// The digest as 64 lower-case hex digits.
    /// - Throws: `SystemError` when `EVP_DigestFinal_ex` fails.
    public consuming func finalizeHex() throws -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { throw SHA256.failure("EVP_DigestFinal_ex") }
        return hexString(digest.prefix(Int(length)))
    }

    /// The SHA-256 of `bytes` as hex.
    /// - Throws: `SystemError` when libcrypto fails.
    public static func hex(_ bytes: UnsafeRawBufferPointer) throws -> String {
        var hasher = try SHA256()
        try hasher.update(bytes)
        return try hasher.finalizeHex()
    }

    /// The SHA-256 of `bytes` as hex.
    /// - Throws: `SystemError` when libcrypto fails.
    public static func hex(_ bytes: [UInt8]) throws -> String {
        try bytes.withUnsafeBytes { try hex($0) }
    }

    /// Checks that libcrypto hashes at all, and right (the digest of no bytes, FIPS 180-4's test vector), before a
    /// command records anything: a libcrypto configured without SHA-256 (an `OPENSSL_CONF` that loads no provider
    /// giving it) is then one clear error, not a run stopped at its first hash.
    /// - Throws: `SystemError` naming the call that failed and libcrypto's reason.
    public static func requireWorking() throws {
        let empty = try hex([UInt8]())
        guard empty == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" else {
            throw SystemError("SHA-256", code: EIO, detail: "libcrypto gives \(empty) for no bytes")
        }
    }

    /// The SHA-256 of album's own short text (a look's recipe, a stage's parameters), hashed where no error can be
    /// thrown (computed properties). libcrypto fails a digest of a few hundred bytes in memory only when it cannot
    /// allocate, and then album cannot go on, as when Swift itself cannot allocate: this stops the process with
    /// libcrypto's reason. Bytes read from files go through the throwing `hex` and `FileBytes.sha256()`.
    public static func ofOwnText(_ text: String) -> String {
        do {
            return try hex(Array(text.utf8))
        } catch {
            fatalError("libcrypto cannot hash album's own text: \(error)")
        }
    }

    /// The error of the libcrypto call that just failed, in libcrypto's words (its error queue, emptied here).
    static func failure(_ operation: String) -> SystemError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return SystemError(operation, code: EIO, detail: "libcrypto gave no reason") }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return SystemError(operation, code: EIO, detail: String(cString: text))
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)

private func hexString(_ bytes: ArraySlice<UInt8>) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
}

extension FileBytes {
    /// The SHA-256 of the file at `path` as hex, streamed through libcrypto a mebibyte at a time with nothing held
    /// (`init(path:streamingHead:)`): the one way to hash a file only to compare it, so a file of any size (a video,
    /// a Live Photo's movie) is hashed in constant memory and never read whole.
    /// - Throws: `FileBytesError` (not a regular file, a read error, the file changed while it was read);
    ///   `SystemError` when libcrypto fails.
    public static func sha256(ofFileAt path: String) throws -> String {
        try FileBytes(path: path, streamingHead: 0).sha256()
    }

    /// The SHA-256 of the file's bytes as hex (of the whole file, also when only its head is held).
    /// - Throws: `SystemError` when libcrypto fails.
    public func sha256() throws -> String {
        if let streamedHash { return streamedHash }
        do {
            return try withBytes { try SHA256.hex($0) }
        } catch var error as SystemError {
            error.path = path
            throw error
        }
    }
}
