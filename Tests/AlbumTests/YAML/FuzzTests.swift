import Foundation
import XCTest
@testable import YAML

/// Seeded mutation fuzzing: every corpus document is mutated many times
/// (bit flips, YAML-significant insertions, deletions, duplicated lines,
/// truncations, re-indentation) and parsed. Parsing must return or throw a
/// `DiagnosticList`, never crash or hang, and accepted output must be
/// renderable.
final class FuzzTests: XCTestCase {
    /// Total number of mutants (kept small enough for CI in debug builds).
    static let mutantCount = 20_000

    /// SplitMix64: small, fast, deterministic.
    typealias SeededGenerator = SplitMix64

    static let significant: [[UInt8]] = [
        ":", "-", "#", "'", "\"", "[", "]", "{", "}", "|", ">", "\t", "\n", " ", ",", "\\",
        "- ", ": ", " #", "&", "*", "!", "?", "...", "---", "\r\n", "\u{FEFF}", "\u{1F4F7}",
    ].map { Array($0.utf8) }

    static func mutate(_ input: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var data = input
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<7, using: &rng) {
            case 0 where !data.isEmpty:
                let i = Int.random(in: 0..<data.count, using: &rng)
                data[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            case 1:
                let i = Int.random(in: 0...data.count, using: &rng)
                data.insert(contentsOf: significant.randomElement(using: &rng)!, at: i)
            case 2 where !data.isEmpty:
                let i = Int.random(in: 0..<data.count, using: &rng)
                data.removeSubrange(i..<min(data.count, i + Int.random(in: 1...4, using: &rng)))
            case 3:
                var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let i = Int.random(in: 0..<lines.count, using: &rng)
                lines.insert(lines[i], at: i)
                data = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            case 4 where !data.isEmpty:
                data.removeSubrange(Int.random(in: 0..<data.count, using: &rng)...)
            case 5:
                var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let i = Int.random(in: 0..<lines.count, using: &rng)
                let body = lines[i].drop { $0 == UInt8(ascii: " ") }
                lines[i] = ArraySlice(Array(repeating: UInt8(ascii: " "), count: Int.random(in: 0...4, using: &rng)) + body)
                data = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            default:
                data.append(UInt8.random(in: 0...255, using: &rng))
            }
        }
        return data
    }

    func testMutatedCorpusNeverCrashes() throws {
        let docs = try (CorpusSupport.documents("accept") + CorpusSupport.documents("reject"))
            .map(CorpusSupport.bytes)
        var rng = SeededGenerator(state: 0x5EED_A1B0)
        var accepted = 0
        let perDoc = max(1, Self.mutantCount / docs.count)
        for doc in docs {
            for _ in 0..<perDoc {
                let mutant = Self.mutate(doc, using: &rng)
                do {
                    let node = try YAMLParser.parse(mutant, file: "mutant.yaml")
                    _ = node.jsonText(pretty: false)
                    accepted += 1
                } catch let list as DiagnosticList {
                    XCTAssertFalse(list.diagnostics.isEmpty, "thrown list must not be empty")
                    for d in list.diagnostics { _ = d.rendered() }
                } catch {
                    XCTFail("unexpected error type \(error)")
                }
            }
        }
        XCTAssertGreaterThan(accepted, 0)
    }

    /// Random bytes either parse, to a tree that renders as JSON, or are refused with diagnostics that name the
    /// file and a position in it: never another error, never an empty list.
    func testRandomBytesParseOrAreRefusedWithDiagnostics() {
        var rng = SeededGenerator(state: 42)
        var accepted = 0, refused = 0
        let position = try! NSRegularExpression(pattern: #"^random\.yaml:[0-9]+:[0-9]+: error: \S"#)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in
                Bool.random(using: &rng) ? Self.significant.randomElement(using: &rng)!.first! : UInt8.random(in: 0...255, using: &rng)
            }
            do {
                let node = try YAMLParser.parse(bytes, file: "random.yaml")
                XCTAssertFalse(node.jsonText(pretty: false).isEmpty, "an accepted document renders: \(bytes)")
                accepted += 1
            } catch let list as DiagnosticList {
                XCTAssertFalse(list.diagnostics.isEmpty, "a refusal says why: \(bytes)")
                for diagnostic in list.diagnostics {
                    let text = diagnostic.rendered()
                    XCTAssertNotNil(position.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                                    "a diagnostic names the file, line and column: \(text)")
                }
                refused += 1
            } catch {
                XCTFail("not a DiagnosticList: \(error) for \(bytes)")
            }
        }
        XCTAssertEqual(accepted + refused, 2_000)
        XCTAssertGreaterThan(refused, 0, "random bytes include documents that are not YAML")
        XCTAssertGreaterThan(accepted, 0, "and some that are (the empty document, plain scalars)")
    }
}
