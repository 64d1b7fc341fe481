import Foundation

/// The timestamps album writes: ISO-8601, UTC with `Z` for times album takes itself. What is stored stays in that
/// form; output shows it two ways, `local` in text and `utc` in JSON.
///
/// ```
/// stored   2026-12-02T06:14:03.123Z
/// text     2026-12-02 07:14:03 +01:00      (TZ=Europe/Paris)
/// JSON     2026-12-02T06:14:03.123Z        (RFC 3339)
/// ```
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
        [true, false].lazy.compactMap { fractional in
            try? Date(text, strategy: .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: fractional)
                .timeSeparator(.colon).timeZone(separator: .omitted))
        }.first
    }

    /// The seconds from one of album's timestamps to another; nil when either cannot be read.
    public static func seconds(from start: String, to end: String) -> Double? {
        guard let a = date(start), let b = date(end) else { return nil }
        return b.timeIntervalSince(a)
    }

    /// One of album's timestamps as text output shows it: the local time in `zone` (the `TZ` variable's, else the
    /// system's), to the second, with the zone's offset: "2026-12-02 07:14:03 +01:00". Text that is not one of
    /// album's timestamps is shown as it is.
    public static func local(_ text: String, in zone: TimeZone = .current) -> String {
        guard let date = date(text) else { return text }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = zone.secondsFromGMT(for: date) / 60
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d %@%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                      c.hour ?? 0, c.minute ?? 0, c.second ?? 0, offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
    }

    /// One of album's timestamps as JSON gives it: RFC 3339 in UTC with `Z` ("2026-12-02T06:14:03.123Z"). One
    /// already in that form, as album stores them, is given as stored (with its milliseconds, or without them); one
    /// with an offset is given in UTC with milliseconds; text that is not a timestamp is given as it is.
    public static func utc(_ text: String) -> String {
        guard !text.hasSuffix("Z"), let date = date(text) else { return text }
        return format(date)
    }

    /// A capture time (`PhotoMetadata.taken`: "2008-04-20T19:12:06", "+02:00" when the camera recorded its offset)
    /// as text output shows it, in `local`'s form but never converted: the camera's clock, where the photo was
    /// taken, is the time people know it by. "2008-04-20 19:12:06", "2008-04-20 19:12:06 +02:00".
    public static func taken(_ text: String) -> String {
        guard text.count >= 19, text.dropFirst(10).first == "T" else { return text }
        let day = text.prefix(10), time = text.dropFirst(11).prefix(8), offset = text.dropFirst(19)
        return "\(day) \(time)" + (offset.isEmpty ? "" : " \(offset)")
    }
}
