/// An 8-bit sRGB colour, written `#rrggbb` in job files and in stored recipes.
public struct RGBColour: Sendable, Equatable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` (any case). Returns nil for anything else, `#rgb` and names included.
    ///
    /// ```
    /// RGBColour(hex: "#704214")  // red 112, green 66, blue 20
    /// ```
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var value: [UInt8] = []
        for i in stride(from: 1, to: 7, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
            value.append(byte)
        }
        self.init(red: value[0], green: value[1], blue: value[2])
    }

    /// `#rrggbb`, lower case: the canonical form recorded in provenance.
    public var hex: String {
        "#" + [red, green, blue].map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// The three values, red first.
    public var components: [UInt8] { [red, green, blue] }
}
