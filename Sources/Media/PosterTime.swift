/// Which frame of a video is its poster, set by the rendering stages' `poster:` option (`SourcePolicy.poster`).
///
/// `auto` is the search `VideoDecoder` describes (the first frame at 10 %, 25 % or 50 % that is not nearly
/// uniform); a fraction of the duration or a time in seconds is the frame at that time itself (decoded up from the
/// key frame before it), or the last key frame when the time is past the end.
/// ```
/// auto   25%   3s   3.5s
/// ```
public enum PosterTime: Sendable, Hashable, CustomStringConvertible {
    case auto
    /// A fraction of the duration, 0–1 (`25%` is 0.25).
    case fraction(Double)
    /// Seconds from the start, 0 or more.
    case seconds(Double)

    /// The longest time a job file may name: a video over it is refused at import (`VideoFile.maximumDuration`).
    public static let maximumSeconds = 24.0 * 3600

    /// `text` as a poster time, or the words of what is wrong with it ("-3s is a negative time").
    public static func parse(_ text: String) -> Result<PosterTime, PosterTimeError> {
        if text == "auto" { return .success(.auto) }
        let unit = text.last
        guard unit == "%" || unit == "s", let number = PosterTime.number(text.dropLast()) else {
            return .failure(PosterTimeError("must be auto, a percentage of the duration (25%) or a time in seconds (3s, 3.5s), found '\(text)'"))
        }
        if number < 0 { return .failure(PosterTimeError("must not be negative, found '\(text)'")) }
        if unit == "%" {
            guard number <= 100 else { return .failure(PosterTimeError("must be at most 100% of the duration, found '\(text)'")) }
            return .success(.fraction(number / 100))
        }
        guard number <= maximumSeconds else {
            return .failure(PosterTimeError("must be at most 86400s (album's longest video), found '\(text)'"))
        }
        return .success(.seconds(number))
    }

    /// A plain decimal: digits with at most one point, an optional leading minus ("3", "3.5", "-1"); no exponent,
    /// no `inf` or `nan`, which `Double(_:)` would take.
    private static func number(_ text: Substring) -> Double? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              parts.count == 1 || !parts[1].isEmpty else { return nil }
        return Double(text)
    }

    /// As a job file writes it: "auto", "25%", "3s", "3.5s".
    public var description: String {
        switch self {
        case .auto: "auto"
        case .fraction(let fraction): PosterTime.decimal(fraction * 100) + "%"
        case .seconds(let seconds): PosterTime.decimal(seconds) + "s"
        }
    }

    /// "3" for 3.0, "3.5" for 3.5.
    private static func decimal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The time this asks for in a video of `duration` seconds; nil for `auto`.
    public func time(inDuration duration: Double) -> Double? {
        switch self {
        case .auto: nil
        case .fraction(let fraction): duration * fraction
        case .seconds(let seconds): seconds
        }
    }
}

/// Why a `poster:` value is not one: the words after the option's name.
public struct PosterTimeError: Error, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
