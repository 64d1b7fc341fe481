import Foundation
import XCTest
import Vips
@testable import Media
@testable import Stages
@testable import JobFile

/// A filter primitive's spec is its one declaration: the job file's checking, its defaults, the canonical JSON
/// stored on photos (and hashed) and docs/filters.md all come from it.
final class FilterSpecTests: XCTestCase {
    /// The canonical JSON of every primitive at its defaults, as albums before the specs wrote it: catalogues on
    /// disk hold these, and the looks' hashes are made from them.
    func testEveryPrimitiveAtItsDefaultsKeepsItsCanonicalJSON() throws {
        let recipe = Recipe(Recipe.registered.map { $0.make(FilterArguments()) })
        XCTAssertEqual(recipe.canonical.text, ##"[{"sepia":{"amount":0.85}},{"noir":{"contrast":0.6}},{"vivid":{"amount":1.0}},"## +
                       ##"{"grayscale":{"amount":1.0}},{"saturation":{"amount":1.0}},{"brightness":{"amount":1.0}},"## +
                       ##"{"contrast":{"amount":1.0}},{"gamma":{"gamma":1.0}},{"tint":{"colour":"#704214","amount":0.5}},"## +
                       ##"{"vignette":{"amount":0.5}},{"grain":{"amount":0.3,"seed":1}},{"sharpen":{"sigma":1.0}},{"blur":{"sigma":0.5}}]"##)
        XCTAssertEqual(try Recipe(canonicalJSON: recipe.canonical.text).canonical.text, recipe.canonical.text)
        let stored = ##"[{"grain":{"amount":0.25,"seed":3}},{"tint":{"colour":"#0a0B0c"}},{"noir":{}}]"##
        XCTAssertEqual(try Recipe(canonicalJSON: stored).canonical.text,
                       ##"[{"grain":{"amount":0.25,"seed":3}},{"tint":{"colour":"#0a0b0c","amount":0.5}},{"noir":{"contrast":0.6}}]"##,
                       "a stored recipe's missing parameters take the spec's defaults")
    }

    /// Every parameter a spec declares is checked against its range in a job file, in the short form (the main
    /// parameter) and the long one, with messages made from the spec.
    func testJobFileChecksEveryDeclaredParameterAgainstItsSpec() throws {
        let folder = try TestSupport.temporaryFolder(self)
        var steps: [String] = [], expected: [String] = []
        for primitive in Recipe.registered {
            for parameter in primitive.declaredParameters {
                let what = "\(primitive.name)'s \(parameter.name)"
                switch parameter.kind {
                case .number(let range):
                    steps.append("{\(primitive.name): {\(parameter.name): \(range.upperBound + 1)}}")
                    expected.append("\(what) must be from \(range.lowerBound) to \(range.upperBound), found \(range.upperBound + 1)")
                case .integer(let range):
                    steps.append("{\(primitive.name): {\(parameter.name): \(range.lowerBound - 1)}}")
                    expected.append("\(what) must be from \(range.lowerBound) to \(range.upperBound), found \(range.lowerBound - 1)")
                case .colour:
                    steps.append("{\(primitive.name): {\(parameter.name): orange}}")
                    expected.append("\(what) must be a colour written \"#rrggbb\"")
                }
            }
            steps.append("{\(primitive.name): {nonsense: 1}}")
            let keys = primitive.declaredParameters.map(\.name).sorted()
            expected.append("unknown key 'nonsense' in filter '\(primitive.name)'; valid keys are \(keys.map { "'\($0)'" }.joined(separator: ", "))")
        }
        let path = try TestSupport.write("version: 1\npresets:\n  bad: [\(steps.joined(separator: ", "))]\nstages:\n  - filter: {preset: bad}\n",
                                         to: "bad.yml", in: folder)
        XCTAssertThrowsError(try JobLoader.load(path: path)) { error in
            let text = "\(error)"
            for message in expected { XCTAssert(text.contains(message), "\(message)\nnot in\n\(text)") }
        }
        // The short form sets the main parameter, the first one declared.
        let good = try TestSupport.write("version: 1\npresets:\n  good: [{tint: \"#102030\"}, {grain: 0.5}]\nstages:\n  - filter: {preset: good}\n",
                                         to: "good.yml", in: folder)
        let filter = try XCTUnwrap(try JobLoader.load(path: good).stages.first as? FilterStage)
        XCTAssertEqual(filter.preset.recipe.canonical.text, ##"[{"tint":{"colour":"#102030","amount":0.5}},{"grain":{"amount":0.5,"seed":1}}]"##)
    }

    /// docs/filters.md's table lists every registered primitive, and only those, with each parameter (the main one
    /// starred), its default and its range as the spec declares them.
    func testTheDocsTableAgreesWithTheSpecs() throws {
        let table = try DocsTable(doc: "filters.md", header: "| primitive |")
        XCTAssertEqual(table.keys, Recipe.registered.map { $0.name }, "one row per registered primitive, in the registry's order")
        for primitive in Recipe.registered {
            let row = try XCTUnwrap(table.row(primitive.name), primitive.name)
            check(row: row, against: primitive.declaredParameters, main: primitive.mainParameter.name, primitive.name)
        }
        let jobFiles = try DocsTable(doc: "job-files.md", section: "### filter", header: "| option |")
        let presets = try DocsTable(doc: "filters.md", section: "## Built-in presets", header: "| preset |")
        for option in FilterStage.options {
            guard case .tuning(let preset, let primitive) = option.kind else { continue }
            let main = primitive.mainParameter
            let row = try XCTUnwrap(jobFiles.row(option.key), option.key)
            XCTAssertEqual(row[1], DocsText.defaultText(main), option.key)
            XCTAssertEqual(row[2], "\(preset) only, \(DocsText.rangeText(main))", option.key)
            let presetRow = try XCTUnwrap(presets.row(preset), preset)
            XCTAssertEqual(Array(presetRow[1...3]), ["`\(option.key)`", DocsText.defaultText(main), DocsText.rangeText(main)], preset)
        }
        let text = try String(contentsOfFile: DocsTable.path("job-files.md"), encoding: .utf8)
        let sentence = try XCTUnwrap(text.range(of: "A preset of your own chains the primitives [^.]*", options: .regularExpression))
        let listed = text[sentence].components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        XCTAssertEqual(listed, Recipe.registered.map { $0.name }, "job-files.md lists every primitive, in the registry's order")
    }

    /// The path ARCHITECTURE.md describes for a new primitive, taken by one declared here: its spec alone gives
    /// the defaults, the short form's parameter, the canonical JSON, the stored recipe's rebuilding and the docs'
    /// row. (Registering it is the one line in `Recipe.registered`.)
    func testANewPrimitiveGetsEverythingFromItsSpec() throws {
        XCTAssertEqual(Posterize.name, "posterize")
        XCTAssertEqual(Posterize.mainParameter.name, "levels")
        XCTAssertEqual(Posterize.declaredParameters.map(\.defaultValue), [.number(4), .number(0.5)])
        XCTAssertEqual(Posterize().canonical.text, ##"{"posterize":{"levels":4,"mix":0.5}}"##)
        let made = Posterize.spec.make(FilterArguments(["levels": .number(8), "mix": .number(2.5), "other": .number(1)]))
        XCTAssertEqual(made.canonical.text, ##"{"posterize":{"levels":8,"mix":2.5}}"##, "make takes what the spec declares")
        let fractional = Posterize.spec.make(FilterArguments(["levels": .number(2.5)]))
        XCTAssertEqual(fractional.levels, 4, "a whole-number parameter given a fraction keeps its default")
        XCTAssertEqual(DocsText.row(for: Posterize.self), "| `posterize` | ★ `levels`; `mix` | 4; 0.5 | whole number 2–256; 0–1 |")
        XCTAssertNil(Recipe.primitives["posterize"], "not registered: a job file or a stored recipe cannot name it")
    }

    private func check(row: [String], against parameters: [FilterParameter], main: String, _ name: String) {
        let names = row[1].components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(names.count, parameters.count, name)
        for (cell, parameter) in zip(names, parameters) {
            XCTAssert(cell.hasPrefix(parameter.name == main ? "★ `\(parameter.name)`" : "`\(parameter.name)`"), "\(name): \(cell)")
        }
        XCTAssertEqual(row[2], parameters.map(DocsText.defaultText).joined(separator: "; "), name)
        XCTAssertEqual(row[3], parameters.map(DocsText.rangeText).joined(separator: "; "), name)
    }
}

/// A primitive declared only here, to show what a spec gives a new one.
private struct Posterize: FilterPrimitive {
    static let spec = FilterSpec(Posterize(), "posterize", .integer("levels", \.levels, in: 2...256), .number("mix", \.mix, in: 0...1))
    var levels: Int = 4
    var mix: Double = 0.5

    func apply(to image: Image) throws -> Image { image }
}
