extension String {
    /// The string with each Unicode scalar for which `replacement` returns a text replaced by it, and every other
    /// scalar kept: the one loop behind JSON's string escaper (`JSONValue.writeString`) and the report's HTML one
    /// (`ReportPage.escape`), which differ only in their tables.
    /// ```
    /// "a<b".escapingScalars { $0 == "<" ? "&lt;" : nil }   // "a&lt;b"
    /// ```
    package func escapingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { out += text } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
