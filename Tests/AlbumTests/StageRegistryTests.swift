import Foundation
import XCTest
@testable import Core
@testable import YAML
@testable import Catalogue
@testable import Stages
@testable import JobFile

/// The stage registry (`StageRegistry`): a stage declares what it is, and the job-file reader, the scheduler, the
/// planner and prune learn it from that declaration, never from its type's name.
final class StageRegistryTests: XCTestCase {
    /// The path ARCHITECTURE.md describes for a new stage, taken by `Stamp`, declared only here: its name, its options
    /// table, its rendition kind and its one-line reader give the job file's key and checks, the parameters and
    /// their hash, and the registry's lookup, with nothing else written for it.
    func testANewStageGetsEverythingFromItsDeclaration() throws {
        let registry = StageRegistry.registered + [Stamp.self]
        XCTAssertTrue(StageRegistry.stage(named: "stamp", in: registry) == Stamp.self)
        XCTAssertNil(StageRegistry.stage(named: "stamp"), "not registered: a job file cannot list it")
        XCTAssertEqual(registry.map { $0.stage.rawValue }, ["import", "filter", "thumbnail", "export", "stamp"])
        XCTAssertNil(StageName(rawValue: "Stamp"), "a name is lowercase letters, digits and hyphens")

        // The job file: the key, the options' checks and their messages, all from the table.
        let (job, none) = try read("  - stamp: {size: 32, corner: bottom-right}\n", registry: registry)
        XCTAssert(none.isEmpty, "\(none)")
        let stamp = try XCTUnwrap(job?.stages.last as? Stamp)
        XCTAssertEqual(stamp.parameters.text, #"{"size":32,"corner":"bottom-right"}"#)
        let (_, errors) = try read("  - stamp: {sise: 32, corner: middle}\n  - stamp: {size: 0}\n", registry: registry)
        XCTAssertEqual(errors.map(\.message), [
            "unknown key 'sise' in stamp; did you mean 'size'?",
            "stamp.corner must be one of top-left, bottom-right, found 'middle'",
            "stamp.size must be from 1 to 512, found 0",
        ])
        let (_, unknown) = try read("  - stamp: {size: 32}\n", registry: StageRegistry.registered)
        XCTAssertEqual(unknown.map(\.message), ["unknown stage 'stamp'; the stages are import, filter, thumbnail and export"])
        let (_, typo) = try read("  - stmap: {}\n", registry: registry)
        XCTAssertEqual(typo.map(\.message), ["unknown stage 'stmap'; did you mean 'stamp'?"])

        // The parameters, recorded and hashed: another value is another hash, so its renditions are out of date.
        XCTAssertEqual(Stamp().parameters.text, #"{"size":16,"corner":"top-left"}"#)
        let hash = { (stage: Stamp) in StageParameters(stage: Stamp.stage, parameters: stage.parameters, software: .current).hash }
        XCTAssertNotEqual(hash(stamp), hash(Stamp()))

        // What the scheduler, the planner and prune ask, from the declaration and its defaults.
        let stage: any PhotoStage = stamp
        XCTAssertEqual(type(of: stage).renditionKinds.map(\.rawValue), ["stamp"])
        XCTAssertNil(stage.sharedDecodeUse, "a stage that does not say it shares a decode never does")
        XCTAssertFalse(stage.writesEachPath)
        XCTAssertNil(stage.outputRoot)
        XCTAssertNil(stage.appliedLook)
        XCTAssertEqual(AppliedStage.parse(AppliedStage.json([AppliedStage(stage: Stamp.stage, parametersHash: "h")]).text)?.first?.stage,
                       Stamp.stage, "runs.stages reads a stage album did not know back as itself")
    }

    /// The stages' own facts, as the scheduler, the planner and prune used to learn them by casting to each type.
    func testTheFourStagesDeclareWhatTheCastsUsedToFindOut() throws {
        let text = """
            version: 1
            stages:
              - import: {from: p}
              - filter: {preset: sepia, keep: full-size}
              - thumbnail: {size: 100, format: webp}
              - export: {from: thumbnail, to: "out/{name}.{ext}"}
              - export: {to: "big/{name}.jpg", max-size: 1600}
            """
        let (job, errors) = try read(whole: text, registry: StageRegistry.registered)
        XCTAssert(errors.isEmpty, "\(errors)")
        let stages = try XCTUnwrap(job?.stages)
        XCTAssertEqual(stages.map { type(of: $0).stage }, [.filter, .thumbnail, .export, .export])
        XCTAssertEqual(job?.importStage?.from, ["/jobs/p"])
        XCTAssertEqual(stages.map(\.sharedDecodeUse), [nil, .any, nil, .bounded(1600)])
        XCTAssertEqual(stages.map(\.writesEachPath), [false, false, true, true])
        XCTAssertEqual(stages.map(\.outputRoot), [nil, nil, "/jobs/out", "/jobs/big"])
        XCTAssertEqual(stages.map { $0.outputFormat?.rawValue }, [nil, "webp", "webp", "jpeg"], "from: thumbnail takes its format")
        XCTAssertEqual(stages.map(\.appliedKeep), ["full-size", nil, nil, nil])
        XCTAssertEqual(job.map { $0.derivedFiles.exportRoots.count }, 2)
        XCTAssertEqual(StageRegistry.renditionKinds, [.filtered, .thumbnail, .export])
        XCTAssertEqual(StageRegistry.stepNames, [.import, .filter, .thumbnail, .export, .caption])
        XCTAssertEqual(StageRegistry.source(from: ["/a"]).from, ["/a"], "album import's source is the registered one")
    }

    /// No Swift file outside a stage's own files names its type: the rest of the code reaches a stage through
    /// `StageRegistry` and the protocols (`PhotoStage`, `PhotoSource`). A stage's own files are those named after
    /// it (`ExportStage+Paths.swift`), import's scanner and entries, and the registry's one line for it.
    func testNoFileOutsideAStagesOwnFilesNamesItsType() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources").path
        let names = StageRegistry.registered.map { String(describing: $0) }
        XCTAssertEqual(names, ["ImportStage", "FilterStage", "ThumbnailStage", "ExportStage"])
        let sharedByImport = ["FolderScanner.swift", "ImportEntry.swift"]
        var offenders: [String] = []
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 100)
        for file in files {
            let base = (file as NSString).lastPathComponent
            let code = try String(contentsOfFile: sources + "/" + file, encoding: .utf8).split(separator: "\n")
                .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            for name in names where !base.hasPrefix(name) && base != "StageRegistry.swift"
                && !(name == "ImportStage" && sharedByImport.contains(base)) {
                for (number, line) in code.enumerated() where line.range(of: "\\b\(name)\\b", options: .regularExpression) != nil {
                    offenders.append("\(file):\(number + 1): \(name)")
                }
            }
        }
        XCTAssertEqual(offenders, [], "reach a stage through StageRegistry and PhotoStage/PhotoSource, not its type")
    }

    // MARK: Helpers

    private func read(_ stages: String, registry: [any RegisteredStage.Type]) throws -> (Job?, [Diagnostic]) {
        try read(whole: "version: 1\nstages:\n  - import: {from: p}\n" + stages, registry: registry)
    }

    private func read(whole text: String, registry: [any RegisteredStage.Type]) throws -> (Job?, [Diagnostic]) {
        let root = try YAMLParser.parse(string: text, file: "job.yml")
        var builder = JobBuilder(reader: SchemaReader(file: "job.yml", text: text), folder: "/jobs")
        builder.registry = registry
        let job = builder.build(root: root, path: "/jobs/job.yml", hash: "h", set: [:], environment: [:])
        return (job, builder.reader.diagnostics)
    }
}

/// A stage declared only here, to show what a declaration gives a new one: it stamps nothing, and says so.
private struct Stamp: PhotoStage, DeclaredOptions, RegisteredStage {
    static let stage = StageName(rawValue: "stamp")!
    static let renditionKinds = [Rendition.Kind(rawValue: "stamp")!]

    enum Corner: String, Sendable, CaseIterable {
        case topLeft = "top-left", bottomRight = "bottom-right"
    }

    var size: Int = 16
    var corner: Corner = .topLeft
    var select: Selection? = nil

    static let options: [StageOption<Stamp>] = [
        .integer("size", \.size, in: 1...512),
        .choice("corner", \.corner),
        .selection(\.select),
    ]

    static func read<File: StageFileReading>(_ node: Node, from file: inout File, after _: [any PhotoStage]) -> Stamp? {
        readDeclared(node, from: &file, into: Stamp())
    }

    func run(_ work: inout PhotoWork, context: StageContext) throws -> StepResult {
        .skipped("a stamp is only an example", input: work.lookHash, output: work.lookHash)
    }

    func plan(_ work: inout PhotoWork, context: StageContext) throws -> Bool { true }
}
