import Foundation

/// A range of calendar days, either end open: `2024-06-01..2024-08-31`, `2024-06-01..`, `..2024-08-31`, or one day.
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
            start = first.isEmpty ? nil : try DateRange.day(first)
            end = last.isEmpty ? nil : try DateRange.day(last)
            if start == nil && end == nil { throw StageError("a date range needs at least one end, e.g. 2024-06-01..2024-08-31") }
            if let start, let end, start > end { throw StageError("the range \(text) ends before it starts") }
        } else {
            let day = try DateRange.day(text)
            start = day
            end = day
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

    /// Checks "YYYY-MM-DD" is a real calendar day (2024-02-30 is not).
    static func day(_ text: String) throws -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else {
            throw StageError("'\(text)' is not a date; expected YYYY-MM-DD, e.g. 2024-06-01")
        }
        guard (1...12).contains(m) else { throw StageError("'\(text)' is not a date: month \(m) does not exist") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let first = calendar.date(from: DateComponents(year: y, month: m, day: 1))!
        let days = calendar.range(of: .day, in: .month, for: first)!.count
        guard (1...days).contains(d) else {
            throw StageError("'\(text)' is not a date: \(y)-\(parts[1]) has \(days) days")
        }
        return text
    }
}
