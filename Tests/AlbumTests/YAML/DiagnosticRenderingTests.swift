import XCTest
@testable import YAML

/// The clang-style rendering of diagnostics and the exact locations behind it.
final class DiagnosticRenderingTests: XCTestCase {
    private func diagnostics(_ text: String) -> [Diagnostic] {
        do {
            _ = try YAMLParser.parse(string: text, file: "job.yaml")
            XCTFail("expected an error for \(text.debugDescription)")
            return []
        } catch let list as DiagnosticList {
            return list.diagnostics
        } catch {
            XCTFail("unexpected error \(error)")
            return []
        }
    }

    func testRenderedFormat() {
        let d = Diagnostic(file: "jobs/a.yaml", location: SourceLocation(line: 3, column: 5),
                           message: "something is wrong", sourceLine: "key: value")
        XCTAssertEqual(d.rendered(), "jobs/a.yaml:3:5: error: something is wrong\nkey: value\n    ^")
    }

    func testRenderedWithoutSourceLine() {
        let d = Diagnostic(file: "a.yaml", location: SourceLocation(line: 1, column: 1), message: "file is too large")
        XCTAssertEqual(d.rendered(), "a.yaml:1:1: error: file is too large")
    }

    func testCaretAfterUnicodeCharacters() throws {
        // 'é', '東', '📷' are one column each (Unicode scalars), not bytes.
        let d = try XCTUnwrap(diagnostics("café: 東京 📷: x\n").first)
        XCTAssertEqual(d.location, SourceLocation(line: 1, column: 11))
        XCTAssertEqual(d.rendered(), "job.yaml:1:11: error: \(d.message)\ncafé: 東京 📷: x\n          ^")
    }

    func testCaretKeepsTabsInPadding() {
        let d = Diagnostic(file: "f", location: SourceLocation(line: 1, column: 4), message: "m", sourceLine: "\ta\tb")
        XCTAssertEqual(d.rendered(), "f:1:4: error: m\n\ta\tb\n\t \t^")
    }

    func testCaretPastEndOfLine() {
        let d = Diagnostic(file: "f", location: SourceLocation(line: 1, column: 4), message: "m", sourceLine: "ab")
        XCTAssertEqual(d.rendered(), "f:1:4: error: m\nab\n   ^")
    }

    func testDuplicateKeyPointsAtSecondWithNoteOfFirst() throws {
        let ds = diagnostics("name: a\nsize: 1\nname: b\n")
        XCTAssertEqual(ds.count, 1)
        XCTAssertEqual(ds[0].location, SourceLocation(line: 3, column: 1))
        XCTAssertTrue(ds[0].message.contains("first defined on line 1"), ds[0].message)
        XCTAssertEqual(ds[0].sourceLine, "name: b")
    }

    func testAllIndependentErrorsSortedByLocation() {
        let ds = diagnostics("b: \"\\q\"\na:\n\tx\na: 2\nb: 3\n")
        XCTAssertEqual(ds.map { "\($0.location)" }, ["1:5", "3:1", "4:1", "5:1"])
        XCTAssertTrue(ds[1].message.hasPrefix("tabs are not allowed for indentation"))
    }

    func testUnterminatedQuotePointsAtOpeningQuote() throws {
        let d = try XCTUnwrap(diagnostics("a: 1\nb: 'open\n").first)
        XCTAssertEqual(d.location, SourceLocation(line: 2, column: 4))
        XCTAssertTrue(d.message.contains("unterminated single-quoted string"))
    }

    func testInvalidUTF8LocationAfterMultibyteText() throws {
        var bytes = Array("ok: 東京\nb: é".utf8)
        bytes.append(0xFF)
        let list = try XCTUnwrap(catchList { try YAMLParser.parse(bytes, file: "u.yaml") })
        XCTAssertEqual(list.diagnostics.first?.location, SourceLocation(line: 2, column: 5))
        XCTAssertTrue(list.diagnostics.first?.message.contains("invalid UTF-8") ?? false)
    }

    func testCRLFColumnsAreUnaffected() throws {
        let d = try XCTUnwrap(diagnostics("a: 1\r\nb: @x\r\n").first)
        XCTAssertEqual(d.location, SourceLocation(line: 2, column: 4))
        XCTAssertEqual(d.sourceLine, "b: @x")
    }

    func testMessagesStartLowerCase() {
        for text in ["a: &x 1\n", "a: b: c\n", "- a\nb: 1\n", "[1, 2\n", "a:\n\tb: 1\n"] {
            for d in diagnostics(text) {
                XCTAssertEqual(d.message.first.map { $0.isLowercase || !$0.isLetter }, true, d.message)
            }
        }
    }

    private func catchList(_ body: () throws -> Node) -> DiagnosticList? {
        do { _ = try body(); return nil } catch { return error as? DiagnosticList }
    }
}
