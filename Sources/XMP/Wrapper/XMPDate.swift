/// XMP's dates (ISO 8601 as the XMP specification profiles it: `YYYY-MM-DD`, then optionally `Thh:mm`, `:ss`,
/// fractions and a zone) in the form album stores EXIF's capture time.
enum XMPDate {
    /// "2008-04-20T19:12:06.25+02:00" → "2008-04-20T19:12:06+02:00"; "2008-04-20T19:12Z" → "2008-04-20T19:12:00+00:00";
    /// "2008-04-20" → "2008-04-20T00:00:00"; nil for a year or month alone, or anything that is not a date.
    static func iso(_ text: String) -> String? {
        var rest = Substring(text)
        func number(_ digits: Int) -> Int? {
            let part = rest.prefix(digits)
            guard part.count == digits, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else { return nil }
            rest = rest.dropFirst(digits)
            return Int(part)
        }
        func take(_ character: Character) -> Bool {
            guard rest.first == character else { return false }
            rest = rest.dropFirst()
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2) else { return nil }
        var (hour, minute, second) = (0, 0, 0)
        var zone = ""
        if take("T") {
            guard let h = number(2), take(":"), let m = number(2) else { return nil }
            (hour, minute) = (h, m)
            if take(":") {
                guard let s = number(2) else { return nil }
                second = s
                if take(".") {
                    let fraction = rest.prefix { $0.isASCII && $0.isNumber }
                    guard !fraction.isEmpty else { return nil }
                    rest = rest.dropFirst(fraction.count)
                }
            }
            if take("Z") {
                zone = "+00:00"
            } else if let sign = rest.first, sign == "+" || sign == "-" {
                rest = rest.dropFirst()
                guard let zh = number(2), take(":"), let zm = number(2), zh <= 23, zm <= 59 else { return nil }
                zone = "\(sign)\(pad(zh)):\(pad(zm))"
            }
        }
        guard rest.isEmpty, (1800...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        return "\(year)-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))\(zone)"
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
