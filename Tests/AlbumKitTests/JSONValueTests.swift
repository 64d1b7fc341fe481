import XCTest
@testable import AlbumKit

/// JSON album writes and reads back: key order kept, escapes and numbers round-trip.
final class JSONValueTests: XCTestCase {
    func testStoredJSONParsesBackToTheSameTextWithKeysInOrder() throws {
        let value = JSONValue.object([
            ("size", .string("240x240")), ("quality", .int(70)), ("amount", .double(0.85)), ("whole", .double(2)),
            ("none", .null), ("flags", .array([.bool(true), .bool(false)])),
            ("text", .string("quote \" backslash \\ tab \t newline \n control \u{1} é 🌅")), ("empty", .object([])),
        ])
        let parsed = try XCTUnwrap(JSONValue(parsing: value.text))
        XCTAssertEqual(parsed.text, value.text)
        XCTAssertEqual(JSONValue(parsing: value.prettyText)?.text, value.text)
        XCTAssertEqual(JSONValue(parsing: #"["\ud83c\udf05", "\u00e9"]"#), .array([.string("🌅"), .string("é")]))
    }

    func testAnythingButOneJSONValueIsRefused() {
        for text in ["", "{", #"{"a":}"#, "[1,]", "tru", #""open"#, "1 2", #"{"a":1}x"#, "\"\u{1}\"", #""\x""#] {
            XCTAssertNil(JSONValue(parsing: text), text)
        }
    }
}
