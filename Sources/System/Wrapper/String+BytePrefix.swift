import Glibc

extension String {
    /// Whether this string begins with `prefix`'s UTF-8 bytes: the test for a path under a folder. Two spellings of
    /// one character are two names to a file system, so paths are compared by bytes; `hasPrefix` compares characters
    /// (Unicode's equivalence, grapheme boundaries), and costs a lookup of 10⁵ paths far more.
    public func hasBytePrefix(_ prefix: String) -> Bool {
        let (own, other) = (utf8, prefix.utf8)
        guard own.count >= other.count else { return false }
        let equal = own.withContiguousStorageIfAvailable { bytes in
            other.withContiguousStorageIfAvailable { start in
                start.isEmpty || memcmp(bytes.baseAddress!, start.baseAddress!, start.count) == 0
            }
        }
        return (equal ?? nil) ?? own.starts(with: other)
    }

    /// What follows `prefix`'s UTF-8 bytes (`hasBytePrefix`), or nil when this string does not begin with them.
    public func afterBytePrefix(_ prefix: String) -> String? {
        guard hasBytePrefix(prefix) else { return nil }
        let rest = utf8.index(utf8.startIndex, offsetBy: prefix.utf8.count)
        return String(self[rest...])
    }

    /// `prefix` then this string without its first `dropping` bytes, made in one allocation (a path joined to its
    /// folder: `+` grows the result twice). `dropping` must end on a character boundary (an ASCII prefix).
    public func joined(after prefix: String, dropping: Int = 0) -> String {
        var (head, tail) = (prefix, self)
        return head.withUTF8 { head in
            tail.withUTF8 { tail in
                let rest = UnsafeBufferPointer(rebasing: tail[min(dropping, tail.count)...])
                return String(unsafeUninitializedCapacity: head.count + rest.count) { buffer in
                    var end = buffer.initialize(fromContentsOf: head)
                    end = buffer[end...].initialize(fromContentsOf: rest)
                    return end
                }
            }
        }
    }
}
