import Foundation
import XCTest

/// ARCHITECTURE.md's table of targets is the map of the code: each target it names exists in Package.swift with the
/// dependencies it lists, no target is left off, and each row depends only on rows above it (lowest first), so the
/// map's order is the layers' order. The compiler holds the layers themselves (`make layers`, tools/layers).
final class ArchitectureTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One target as a text declares it: its name, its folder and the targets it depends on.
    struct Target: Equatable, CustomStringConvertible {
        var name: String
        var path: String
        var dependencies: Set<String>
        var description: String { "\(name) (\(path)): \(dependencies.sorted().joined(separator: ", "))" }
    }

    /// The targets of Package.swift under Sources/ (not the benchmark's nor the tests'), in the order written.
    static func packageTargets() throws -> [Target] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"(\w+)"((?:[^()]|\([^()]*\))*)\)"#)
        var targets: [Target] = []
        for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let name = String(text[Range(match.range(at: 1), in: text)!])
            let body = String(text[Range(match.range(at: 2), in: text)!])
            let path = firstCapture(#"path:\s*"([^"]+)""#, in: body) ?? "Sources/\(name)"
            guard path.hasPrefix("Sources/") else { continue }
            let list = firstCapture(#"dependencies:\s*\[([^\]]*)\]"#, in: body) ?? ""
            let dependencies = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }.filter { !$0.isEmpty })
            targets.append(Target(name: name, path: path, dependencies: dependencies))
        }
        return targets
    }

    /// The rows of ARCHITECTURE.md's "Targets" table: `| `Name` | `path` | `Dep`, `Dep` | rule |`.
    static func mappedTargets() throws -> [Target] {
        let text = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "\n## Targets\n"), "ARCHITECTURE.md has a Targets section")
        let section = text[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var targets: [Target] = []
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let names = backticked(cells[1]), paths = backticked(cells[2])
            guard let name = names.first, let path = paths.first else { continue }
            targets.append(Target(name: name, path: path, dependencies: Set(backticked(cells[3]))))
        }
        return targets
    }

    func testEveryTargetTheMapNamesExistsWithTheDependenciesItLists() throws {
        let package = try Self.packageTargets(), map = try Self.mappedTargets()
        XCTAssertGreaterThan(package.count, 20, "Package.swift read: \(package)")
        XCTAssertEqual(Set(map.map(\.name)), Set(package.map(\.name)), "the map names every target, and only those")
        let declared = Dictionary(package.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for row in map {
            guard let target = declared[row.name] else { continue }
            XCTAssertEqual(row.path, target.path, "\(row.name)'s folder")
            XCTAssertEqual(row.dependencies, target.dependencies, "\(row.name)'s dependencies: the map says \(row), Package.swift \(target)")
        }
    }

    func testTheMapListsEachTargetAboveItsDependencies() throws {
        var above = Set<String>()
        for row in try Self.mappedTargets() {
            XCTAssert(row.dependencies.isSubset(of: above), "\(row.name) depends on \(row.dependencies.subtracting(above).sorted()), listed after it")
            above.insert(row.name)
        }
    }

    func testTheLayerCheckIsPartOfMakeTest() throws {
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let test = makefile.components(separatedBy: "\ntest: deps\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        XCTAssert(test.contains("tools/layers/layers.py"), "make test runs the layer check:\n\(test)")
        XCTAssert(makefile.contains("BUILD_FLAGS := --explicit-target-dependency-import-check error"), "the import check is an error")
        XCTAssert(test.contains("$(SWIFT) test --disable-swift-testing $(BUILD_FLAGS)"), test)
    }

    private static func firstCapture(_ pattern: String, in text: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
              let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }

    private static func backticked(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }
}
