import Foundation

/// A range of calendar days, either end open: `2024-06-01..2024-08-31`, `2024-06-01..`, `..2024-08-31`, or one day.
/// A month (`2024-06`) or a year (`2024`) is every day in it, alone or at either end of a range: `2024-06` is
/// `2024-06-01..2024-06-30`, and `2024-03..2024-04` is `2024-03-01..2024-04-30`.
public struct DateRange: Sendable, Equatable, CustomStringConvertible {
    /// First day, "YYYY-MM-DD", or nil for open.
    public var start: String?
    /// Last day (inclusive), or nil for open.
    public var end: String?

    /// Parses the job-file and command-line form. Throws a sentence saying what is wrong.
    public init(parsing text: String) throws {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let dots = text.range(of: "..") {
            let first = String(text[..<dots.lowerBound]), last = String(text[dots.upperBound...])
            start = first.isEmpty ? nil : try DateRange.days(first).first
            end = last.isEmpty ? nil : try DateRange.days(last).last
            if start == nil && end == nil { throw StageError("a date range needs at least one end, e.g. 2024-06-01..2024-08-31") }
            if let start, let end, start > end { throw StageError("the range \(text) ends before it starts") }
        } else {
            let days = try DateRange.days(text)
            start = days.first
            end = days.last
        }
    }

    /// Whether an ISO-8601 timestamp's calendar day lies in the range. A nil timestamp (undated) never matches.
    public func contains(_ timestamp: String?) -> Bool {
        guard let timestamp, timestamp.count >= 10 else { return false }
        let day = String(timestamp.prefix(10))
        if let start, day < start { return false }
        if let end, day > end { return false }
        return true
    }

    public var description: String {
        start == end ? (start ?? "") : "\(start ?? "")..\(end ?? "")"
    }

    /// The first and last day of "YYYY-MM-DD" (that day), "YYYY-MM" (that month) or "YYYY" (that year), each
    /// checked to be a real calendar day (2024-02-30 is not).
    static func days(_ text: String) throws -> (first: String, last: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let widths = [4, 2, 2]
        guard (1...3).contains(parts.count), zip(parts, widths).allSatisfy({ $0.count == $1 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]) else {
            throw StageError("'\(text)' is not a date; expected YYYY-MM-DD, YYYY-MM or YYYY, e.g. 2024-06-01, 2024-06 or 2024")
        }
        guard parts.count > 1 else { return ("\(parts[0])-01-01", "\(parts[0])-12-31") }
        let m = Int(parts[1])!
        guard (1...12).contains(m) else { throw StageError("'\(text)' is not a date: month \(m) does not exist") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let first = calendar.date(from: DateComponents(year: y, month: m, day: 1))!
        let days = calendar.range(of: .day, in: .month, for: first)!.count
        let month = "\(parts[0])-\(parts[1])"
        guard parts.count > 2 else { return ("\(month)-01", "\(month)-\(days)") }
        let d = Int(parts[2])!
        guard (1...days).contains(d) else {
            throw StageError("'\(text)' is not a date: \(month) has \(days) days")
        }
        return (text, text)
    }
}
