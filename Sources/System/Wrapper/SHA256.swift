internal import CCrypto

/// SHA-256 through libcrypto (OpenSSL's EVP interface). album never hand-writes cryptography.
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    public init() {
        // EVP_MD_CTX_new only fails when memory is exhausted, a state album cannot recover from.
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        // EVP_sha256 is built into libcrypto; its init cannot fail for a fresh context.
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as 64 lower-case hex digits.
    public consuming func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return hexString(digest.prefix(Int(length)))
    }

    /// The SHA-256 of `bytes` as hex.
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    /// The SHA-256 of `bytes` as hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex($0) }
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
    /// The SHA-256 of the file's bytes as hex.
    public func sha256() -> String {
        withBytes { SHA256.hex($0) }
    }
}
