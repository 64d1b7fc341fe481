import Foundation

/// The timestamps album writes: ISO-8601, UTC with `Z` for times album takes itself.
public enum Timestamp {
    /// Now, e.g. "2026-11-30T08:40:00.123Z".
    public static func now() -> String { format(Date()) }

    /// `date` as ISO-8601 UTC with milliseconds.
    public static func format(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true)
            .timeSeparator(.colon).timeZone(separator: .omitted))
    }

    /// One of album's timestamps read back (`format`'s form; without fractional seconds too); nil for other text.
    public static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true)
            .timeSeparator(.colon).timeZone(separator: .omitted))
    }

    /// The seconds from one of album's timestamps to another; nil when either cannot be read.
    public static func seconds(from start: String, to end: String) -> Double? {
        guard let a = date(start), let b = date(end) else { return nil }
        return b.timeIntervalSince(a)
    }
}
