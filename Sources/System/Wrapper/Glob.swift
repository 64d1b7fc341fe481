import Glibc

/// A shell wildcard pattern (`*`, `?`, `[…]`), matched by `fnmatch(3)`.
///
/// ```
/// Glob("*.jpg").matches("a.jpg")                                  // true
/// Glob("/photos/*.jpg", pathname: true).matches("/photos/x/a.jpg") // false: `*` does not match `/`
/// ```
public struct Glob: Sendable, Equatable {
    /// The pattern as written.
    public var pattern: String
    /// `FNM_PATHNAME`: a `/` is matched only by a `/` in the pattern, never by `*`, `?` or `[…]`.
    public var pathname: Bool

    public init(_ pattern: String, pathname: Bool = false) {
        self.pattern = pattern
        self.pathname = pathname
    }

    /// Whether `string` matches the pattern.
    public func matches(_ string: String) -> Bool {
        fnmatch(pattern, string, pathname ? FNM_PATHNAME : 0) == 0
    }
}
