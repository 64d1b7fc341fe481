import Foundation
import XCTest

/// End to end: the built `album parse` prints the corpus documents about the
/// end of the input and about tabs near scalars as their committed JSON
/// (YAML 1.2's reading), and rejects the others with `file:line:col`
/// naming the tab, exit status 2.
final class ParseCommandTests: XCTestCase {
    /// Corpus documents this test runs through the binary.
    static func isCovered(_ name: String) -> Bool {
        name.hasPrefix("block-eof-") || name.hasSuffix("-eof-nonl") || name.contains("tab")
    }

    func testAlbumParsePrintsEndOfInputAndTabDocumentsAsCommitted() throws {
        let docs = try CorpusSupport.documents("accept").filter { Self.isCovered($0.deletingPathExtension().lastPathComponent) }
        XCTAssertGreaterThanOrEqual(docs.count, 40)
        for url in docs {
            let name = url.deletingPathExtension().lastPathComponent
            let expected = try String(contentsOf: url.deletingPathExtension().appendingPathExtension("json"), encoding: .utf8)
            let result = try TestSupport.album(["parse", url.path, "--pretty"])
            XCTAssertEqual(result.status, 0, "accept/\(name): \(result.stderr)")
            XCTAssertEqual(result.stdout.trimmingCharacters(in: .newlines), expected.trimmingCharacters(in: .newlines), "accept/\(name)")
        }
    }

    func testAlbumParseRejectsTabIndentationNamingTheTab() throws {
        let docs = try CorpusSupport.documents("reject").filter { $0.lastPathComponent.contains("tab") }
        XCTAssertGreaterThanOrEqual(docs.count, 22)
        for url in docs {
            let name = url.deletingPathExtension().lastPathComponent
            let first = try XCTUnwrap(String(contentsOf: url.deletingPathExtension().appendingPathExtension("err"), encoding: .utf8)
                .split(separator: "\n").first.map(String.init))
            let parts = first.split(separator: " ", maxSplits: 1).map(String.init)
            let result = try TestSupport.album(["parse", url.path])
            XCTAssertEqual(result.status, 2, "reject/\(name)")
            XCTAssertEqual(result.stdout, "", "reject/\(name)")
            XCTAssert(result.stderr.contains("\(url.path):\(parts[0]): error: \(parts[1])"), "reject/\(name): \(result.stderr)")
        }
    }
}
