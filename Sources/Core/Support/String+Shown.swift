extension String {
    /// This text, which album did not write (a file name, a caption, a libvips message, a job's name), as one line
    /// that a terminal or a CI log shows and does not obey: every control character is written out, `\n`, `\r`,
    /// `\t`, and `\x1B` for the others (C0, DEL, C1), and each byte of a name that is not UTF-8 (`NativePath`'s form)
    /// as `\xE9`. Everything else is kept. A name holding a line feed cannot start a line of its own (a GitHub
    /// `::error` or `::add-mask::` command), nor ESC or BEL recolour, retitle or ring a terminal.
    /// ```
    /// "a\u{1B}[31mb\n::error ::x".shown   // #"a\x1B[31mb\n::error ::x"#
    /// ```
    package var shown: String {
        guard needsShowing(keepingLines: false) else { return self }
        return escapingScalars { scalar in
            if (0xF780..<0xF800).contains(scalar.value) { return String.hex(scalar.value - 0xF780 + 0x80) }
            return String.written(scalar, keepingLines: false)
        }
    }

    /// Lines album wrote, with whatever they quote: every control character written out as `shown` writes it,
    /// except the line feeds and tabs that lay the text out (DEL and C1 as `\u009B`, which is also JSON's escape of
    /// that character, so a JSON text stays valid and means the same). `Console` writes every line through it.
    package var shownKeepingLines: String {
        guard needsShowing(keepingLines: true) else { return self }
        return escapingScalars { scalar in
            (0x7F..<0xA0).contains(scalar.value) ? "\\u00" + String(scalar.value, radix: 16, uppercase: true)
                : String.written(scalar, keepingLines: true)
        }
    }

    /// The written form of a control character (nil for any other, and for LF and TAB when lines are kept).
    private static func written(_ scalar: Unicode.Scalar, keepingLines: Bool) -> String? {
        switch scalar.value {
        case 0x0A: keepingLines ? nil : "\\n"
        case 0x09: keepingLines ? nil : "\\t"
        case 0x0D: "\\r"
        case 0..<0x20, 0x7F..<0xA0: hex(scalar.value)
        default: nil
        }
    }

    private static func hex(_ value: UInt32) -> String {
        "\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16, uppercase: true)
    }

    /// Whether any byte of the UTF-8 text is one `shown` rewrites: the fast path for the text almost every line is.
    private func needsShowing(keepingLines: Bool) -> Bool {
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte < 0x20, !(keepingLines && (byte == 0x0A || byte == 0x09)) { return true }
            if byte == 0x7F { return true }
            if previous == 0xC2, (0x80..<0xA0).contains(byte) { return true }     // C1: U+0080–U+009F
            if !keepingLines, previous == 0xEF, byte == 0x9E || byte == 0x9F { return true }  // U+F780–U+F7FF
            previous = byte
        }
        return false
    }
}
