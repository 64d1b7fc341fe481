import Glibc

/// A shell wildcard pattern (`*`, `?`, `[…]`), matched by `fnmatch(3)`; on paths, also `**`, as bash's `globstar`.
///
/// ```
/// Glob("*.jpg").matches("a.jpg")                                        // true
/// Glob("/photos/*.jpg", pathname: true).matches("/photos/x/a.jpg")       // false: `*` does not match `/`
/// Glob("/photos/**/*.jpg", pathname: true).matches("/photos/x/y/a.jpg")  // true: `**` is any folders
/// Glob("/photos/**/*.jpg", pathname: true).matches("/photos/a.jpg")      // true: none at all too
/// ```
public struct Glob: Sendable, Equatable {
    /// The pattern as written.
    public var pattern: String
    /// A path pattern: it is matched one `/`-separated component at a time (`*`, `?` and `[…]` never match `/`,
    /// as with `FNM_PATHNAME`), and a component that is exactly `**` matches zero or more whole components.
    public var pathname: Bool

    public init(_ pattern: String, pathname: Bool = false) {
        self.pattern = pattern
        self.pathname = pathname
    }

    /// Whether `string` matches the pattern.
    public func matches(_ string: String) -> Bool {
        guard pathname else { return fnmatch(pattern, string, 0) == 0 }
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let names = string.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var memo = Set<[Int]>()
        return Glob.matches(parts[...], names[...], failed: &memo)
    }

    /// Component by component; `failed` remembers the (pattern, path) positions already known not to match, so a
    /// pattern with several `**` stays linear in practice.
    private static func matches(_ parts: ArraySlice<String>, _ names: ArraySlice<String>, failed: inout Set<[Int]>) -> Bool {
        let key = [parts.startIndex, names.startIndex]
        if failed.contains(key) { return false }
        let result: Bool
        if let part = parts.first {
            if part == "**" {
                // Zero components, or one more and `**` again.
                result = matches(parts.dropFirst(), names, failed: &failed)
                    || (!names.isEmpty && matches(parts, names.dropFirst(), failed: &failed))
            } else if let name = names.first {
                result = fnmatch(part, name, FNM_PATHNAME) == 0 && matches(parts.dropFirst(), names.dropFirst(), failed: &failed)
            } else {
                result = false
            }
        } else {
            result = names.isEmpty
        }
        if !result { failed.insert(key) }
        return result
    }
}
