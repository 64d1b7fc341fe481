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
}
