/// A point written in ISO 6709's text form (Annex H), as QuickTime and MP4 containers carry a video's place
/// (`com.apple.quicktime.location.ISO6709`, `location`): latitude, longitude, an optional altitude, an optional
/// coordinate reference system, then `/`.
///
/// ```
/// ISO6709(parsing: "+48.8577+002.2950+035.000/")   // latitude 48.8577, longitude 2.295
/// ISO6709(parsing: "-3345.5+15112.25/")            // degrees and minutes: -33.758333, 151.204166
/// ISO6709(parsing: "+48.8577+2.2950/")             // nil: a longitude has three digits of degrees
/// ```
///
/// Each part is a sign, then degrees (two digits of latitude, three of longitude), optionally minutes and seconds
/// (two digits each), then an optional fraction of the last; the altitude a sign and digits; `CRS` and a name, if
/// any, only `CRSWGS_84` (the datum GPS gives). Anything else (a missing sign or `/`, a wrong count of digits,
/// minutes or seconds of 60 or more, a latitude past ±90 or a longitude past ±180, text after the `/`) is not a
/// point: the place is absent, never guessed.
public struct ISO6709: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init?(parsing text: String) {
        var rest = Substring(text)
        guard let latitude = ISO6709.angle(&rest, degreeDigits: 2, limit: 90),
              let longitude = ISO6709.angle(&rest, degreeDigits: 3, limit: 180) else { return nil }
        if rest.first == "+" || rest.first == "-" {
            rest.removeFirst()
            guard ISO6709.number(&rest) != nil else { return nil }
        }
        if rest.hasPrefix("CRS") {
            guard rest.hasPrefix("CRSWGS_84") else { return nil }
            rest = rest.dropFirst("CRSWGS_84".count)
        }
        guard rest == "/" else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// One signed angle in degrees: `±DD[MM[SS]][.fraction]` (with `degreeDigits` digits of degrees), taken from the
    /// front of `rest`; nil when it is not one, or past `limit`.
    private static func angle(_ rest: inout Substring, degreeDigits: Int, limit: Double) -> Double? {
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest.removeFirst()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(digits.count)
        var fraction = 0.0
        if rest.first == "." {
            rest.removeFirst()
            let decimals = rest.prefix { $0.isASCII && $0.isNumber }
            guard !decimals.isEmpty, let value = Double("0." + decimals) else { return nil }
            rest = rest.dropFirst(decimals.count)
            fraction = value
        }
        let whole = Array(digits).map { Int(String($0))! }
        guard [degreeDigits, degreeDigits + 2, degreeDigits + 4].contains(whole.count) else { return nil }
        func value(_ range: Range<Int>) -> Double { Double(whole[range].reduce(0) { $0 * 10 + $1 }) }
        var parts = [value(0..<degreeDigits)]
        if whole.count >= degreeDigits + 2 { parts.append(value(degreeDigits..<degreeDigits + 2)) }
        if whole.count == degreeDigits + 4 { parts.append(value(degreeDigits + 2..<degreeDigits + 4)) }
        parts[parts.count - 1] += fraction
        guard parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let degrees = parts.enumerated().reduce(0.0) { $0 + $1.element / pow60($1.offset) }
        guard degrees <= limit else { return nil }
        return sign == "-" ? -degrees : degrees
    }

    /// 60 to the power `n`: 1, 60, 3600.
    private static func pow60(_ n: Int) -> Double { n == 0 ? 1 : n == 1 ? 60 : 3600 }

    /// Unsigned digits with an optional fraction, from the front of `rest`.
    private static func number(_ rest: inout Substring) -> Double? {
        let digits = rest.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
        guard let value = Double(digits), digits.first != ".", digits.last != "." else { return nil }
        rest = rest.dropFirst(digits.count)
        return value
    }
}
