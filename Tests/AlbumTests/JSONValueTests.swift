import XCTest
@testable import Core
@testable import YAML
@testable import Report

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

    /// The one string escaper follows RFC 8259: `"`, `\` and every control character escaped, the short forms where
    /// JSON has them, everything else (DEL, U+2028, non-ASCII) as itself; Python's json module says the same.
    func testStringsAreEscapedByRFC8259AsPythonsJSONModuleEscapesThem() throws {
        let text = "q\" b\\ \u{8}\u{C}\n\r\t \u{0}\u{1F}\u{7F} \u{2028}\u{2029} é 🌅 </script> &"
        let written = JSONValue.string(text).text
        XCTAssertEqual(written, #""q\" b\\ \b\f\n\r\t \u0000\u001f"# + "\u{7F} \u{2028}\u{2029} é 🌅 </script> &\"")
        XCTAssertEqual(JSONValue(parsing: written), .string(text))
        let python = try Independent.python("import json,sys; sys.stdout.write(json.dumps(json.loads(sys.argv[1]), ensure_ascii=False))",
                                            [written])
        XCTAssertEqual(python, written)
        XCTAssertEqual(try YAMLParser.parse(Array("- \"\\x07\\b\"\n".utf8), file: "t.yml").jsonText(pretty: false), #"["\u0007\b"]"#,
                       "album parse writes its strings through the same escaper")
    }

    func testTheReportsHTMLEscapeUsesTheSameLoopWithItsOwnTable() {
        XCTAssertEqual(ReportPage.escape("<a href=\"x\">Tom & 'Jerry'</a>\u{1}\n"),
                       "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;\u{FFFD}\n")
    }
}
