import XCTest
@testable import YAML

/// Public API behaviour: limits, locations, accessors, JSON rendering.
final class ParserAPITests: XCTestCase {
    func testEmptyDocumentIsNullAtOneOne() throws {
        for text in ["", "# only a comment\n", "\n\n  \n", "---\n", "---\n...\n"] {
            let node = try YAMLParser.parse(string: text, file: "e.yaml")
            XCTAssertEqual(node, Node(value: .null, location: SourceLocation(line: 1, column: 1)), text)
        }
    }

    func testFileTooLarge() {
        let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: YAMLParser.maxBytes + 1)
        XCTAssertThrowsError(try YAMLParser.parse(bytes, file: "big.yaml")) { error in
            let d = (error as? DiagnosticList)?.diagnostics.first
            XCTAssertEqual(d?.location, SourceLocation(line: 1, column: 1))
            XCTAssertTrue(d?.message.contains("file is too large") ?? false)
        }
    }

    func testDepthLimitBoundary() throws {
        let ok = String(repeating: "[", count: YAMLParser.maxDepth + 1) + String(repeating: "]", count: YAMLParser.maxDepth + 1)
        XCTAssertNoThrow(try YAMLParser.parse(string: ok, file: "d"))
        let deep = String(repeating: "[", count: YAMLParser.maxDepth + 2) + String(repeating: "]", count: YAMLParser.maxDepth + 2)
        XCTAssertThrowsError(try YAMLParser.parse(string: deep, file: "d"))
    }

    func testVeryDeepInputDoesNotOverflowTheStack() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "- ", count: 100_000)
        XCTAssertThrowsError(try YAMLParser.parse(string: text, file: "d"))
        let block = (0..<5_000).map { String(repeating: " ", count: $0) + "k:\n" }.joined()
        XCTAssertThrowsError(try YAMLParser.parse(string: block, file: "d"))
    }

    func testNodeLocations() throws {
        let root = try YAMLParser.parse(string: "# c\njob:\n  steps:\n    - thumbnail: 256\n      name: 'x'\n", file: "j")
        XCTAssertEqual(root.location, SourceLocation(line: 2, column: 1))
        let steps = try XCTUnwrap(root["job"]?["steps"])
        XCTAssertEqual(steps.location, SourceLocation(line: 4, column: 5))
        let first = try XCTUnwrap(steps[0])
        XCTAssertEqual(first.location, SourceLocation(line: 4, column: 7))
        XCTAssertEqual(first["thumbnail"]?.location, SourceLocation(line: 4, column: 18))
        XCTAssertEqual(first["name"]?.location, SourceLocation(line: 5, column: 13))
        XCTAssertEqual(first.mappingValue?.map { $0.key.location.column }, [7, 7])
    }

    func testAccessors() throws {
        let root = try YAMLParser.parse(string: "s: text\ni: 3\nf: 2.5\nb: true\nn: ~\nl: [1]\n", file: "a")
        XCTAssertEqual(root["s"]?.stringValue, "text")
        XCTAssertEqual(root["i"]?.intValue, 3)
        XCTAssertEqual(root["i"]?.doubleValue, 3)
        XCTAssertEqual(root["f"]?.doubleValue, 2.5)
        XCTAssertEqual(root["b"]?.boolValue, true)
        XCTAssertEqual(root["n"]?.isNull, true)
        XCTAssertEqual(root["l"]?.sequenceValue?.count, 1)
        XCTAssertNil(root["missing"])
        XCTAssertEqual(root.mappingValue?.map { $0.key.keyText }, ["s", "i", "f", "b", "n", "l"])
    }

    func testJSONCompactAndPretty() throws {
        let root = try YAMLParser.parse(string: "b: [1, {c: \"q\\\"\\n\"}]\na: {}\n1: []\n", file: "j")
        XCTAssertEqual(root.jsonText(pretty: false), #"{"b":[1,{"c":"q\"\n"}],"a":{},"1":[]}"#)
        XCTAssertEqual(root.jsonText(pretty: true), """
        {
          "b": [
            1,
            {
              "c": "q\\"\\n"
            }
          ],
          "a": {},
          "1": []
        }
        """)
    }

    func testJSONEscapesControlCharacters() throws {
        let root = try YAMLParser.parse(string: #"["\0\a\b\t\e\x7f\u00e9\/"]"#, file: "j")
        XCTAssertEqual(root.jsonText(pretty: false), "[\"\\u0000\\u0007\\b\\t\\u001b\u{7F}é/\"]")
    }

    func testBOMIsSkippedAndCRLFNormalised() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a: |\r\n  x\r\n  y\r\n".utf8)
        XCTAssertEqual(try YAMLParser.parse(bytes, file: "b")["a"]?.stringValue, "x\ny\n")
    }
}
