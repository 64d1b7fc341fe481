import Foundation
import XCTest
@testable import Core
@testable import YAML
@testable import Media
@testable import Stages
@testable import JobFile

/// Each stage's options table is its one declaration: the job file's keys and checks, the parameters whose hash
/// says whether a rendition is up to date, and docs/job-files.md all come from it.
final class StageOptionTests: XCTestCase {
    /// What albums before the tables recorded for these jobs: catalogues on disk hold renditions named by these
    /// parameters' hashes, so a change would make every one of them out of date.
    func testStageParametersSerialiseExactlyAsBefore() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let defaults = try JobLoader.load(path: try TestSupport.write("""
            version: 1
            stages:
              - import: {from: /p}
              - filter: {preset: sepia}
              - thumbnail:
              - export: {to: "/o/{name}.jpg"}
            """, to: "default.yml", in: folder))
        XCTAssertEqual(parameters(of: defaults), [
            #"{"from":["/p"],"recursive":true,"include":["*.jpg","*.jpeg","*.jpe","*.png","*.webp","*.heic","*.heif","*.avif","*.tif","*.tiff","*.gif","*.jxl","*.dng","*.cr2","*.cr3","*.nef","*.nrw","*.arw","*.srf","*.sr2","*.raf","*.orf","*.rw2","*.rwl","*.pef","*.srw","*.mov","*.qt","*.mp4","*.m4v"],"exclude":[],"limit":null,"mode":"reference","follow-symlinks":false,"on-damaged":"fail","max-pixels":100,"untrusted-loaders":"block"}"#,
            #"{"preset":"sepia","recipe":[{"sepia":{"amount":0.85}}],"quality":90}"#,
            #"{"size":"240x240","fit":"cover","crop":"centre","format":"jpeg","quality":70}"#,
            #"{"from":"image","to":"/o/{name}.jpg","root":"/o","format":"jpeg","quality":90,"max-size":null,"metadata":"strip-gps","if-exists":"skip"}"#,
        ])
        let varied = try JobLoader.load(path: try TestSupport.write("""
            version: 1
            stages:
              - import: {from: [/p, /q], recursive: false, include: ['*.x'], exclude: ['*.y'], limit: 5, mode: copy, follow-symlinks: true, on-damaged: warn, max-pixels: 7, untrusted-loaders: allow}
              - filter: {preset: noir, contrast: 0.25, select: {camera: Nikon}}
              - thumbnail: {size: 100x50, fit: contain, crop: entropy, format: webp, quality: 33, select: {taken: 2024-06-01..2024-08-31}}
              - export: {from: thumbnail, to: "/o/{taken:yyyy}/{name}.png", quality: 12, max-size: 99, metadata: keep, if-exists: rename, select: {missing: export}}
              - filter: {preset: vivid}
              - filter: {preset: none}
              - filter: {preset: sepia, intensity: 0.5}
            """, to: "varied.yml", in: folder))
        XCTAssertEqual(parameters(of: varied), [
            #"{"from":["/p","/q"],"recursive":false,"include":["*.x"],"exclude":["*.y"],"limit":5,"mode":"copy","follow-symlinks":true,"on-damaged":"warn","max-pixels":7,"untrusted-loaders":"allow"}"#,
            #"{"preset":"noir","recipe":[{"noir":{"contrast":0.25}}],"quality":90,"select":{"camera":"Nikon"}}"#,
            #"{"size":"100x50","fit":"contain","crop":"entropy","format":"webp","quality":33,"select":{"taken":"2024-06-01..2024-08-31"}}"#,
            #"{"from":"thumbnail","to":"/o/{taken:yyyy}/{name}.png","root":"/o","format":"png","quality":12,"max-size":99,"metadata":"keep","if-exists":"rename","select":{"missing":"export"}}"#,
            #"{"preset":"vivid","recipe":[{"vivid":{"amount":1.0}}],"quality":90}"#,
            #"{"preset":"none","recipe":[],"quality":90}"#,
            #"{"preset":"sepia","recipe":[{"sepia":{"amount":0.5}}],"quality":90}"#,
        ])
    }

    /// For every option in every table: a job that gives it a value other than its default loads, and the stage's
    /// parameters hash changes. The values are made from each option's declared kind, so a new option is covered
    /// the moment it is declared.
    func testEveryOptionChangesTheParametersHash() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try checkEveryOption(ImportStage.self, .import, base: ["from": "/p"], in: folder) { $0.importStage as? ImportStage }
        try checkEveryOption(FilterStage.self, .filter, base: ["preset": "none"], in: folder) { $0.stages.last as? FilterStage }
        try checkEveryOption(ThumbnailStage.self, .thumbnail, base: [:], in: folder) { $0.stages.last as? ThumbnailStage }
        try checkEveryOption(ExportStage.self, .export, base: ["to": #""/o/{name}""#], before: "  - thumbnail:\n", in: folder) {
            $0.stages.last as? ExportStage
        }
        var filter = FilterStage()
        let before = hash(filter, .filter)
        filter.quality += 1
        XCTAssertNotEqual(hash(filter, .filter), before, "the filter stage's recorded quality")
    }

    /// Every stored property of a stage is bound by an option of its table: a property added without one (read
    /// some other way, and so missing from the parameters) fails here.
    func testEveryStoredPropertyIsDeclaredInTheTable() throws {
        XCTAssertEqual(Mirror(reflecting: ImportStage()).children.count, bound(ImportStage.options))
        XCTAssertEqual(Mirror(reflecting: FilterStage()).children.count, bound(FilterStage.options))
        XCTAssertEqual(Mirror(reflecting: ThumbnailStage()).children.count, bound(ThumbnailStage.options))
        let export = ExportStage(to: try PathTemplate("/o/{name}.jpg", relativeTo: "/"))
        XCTAssertEqual(Mirror(reflecting: export).children.count, bound(ExportStage.options))
    }

    /// docs/job-files.md has one row per key of each table, and only those, each with the option's default (from
    /// the stage's written-out defaults), its range and its choices.
    func testTheDocsTablesAgreeWithTheOptionTables() throws {
        try checkDocs(ImportStage(), "import")
        try checkDocs(FilterStage(), "filter")
        try checkDocs(ThumbnailStage(), "thumbnail")
        try checkDocs(ExportStage(to: try PathTemplate("/o/{name}.jpg", relativeTo: "/")), "export")
    }

    /// The path ARCHITECTURE.md describes for a new option, taken by a stage declared here: one line in its table
    /// gives the job file's key (checked, with "did you mean"), its reading and range check, and its place in the
    /// parameters.
    func testANewOptionIsReadCheckedAndHashedFromItsTableLine() throws {
        func read(_ yaml: String) throws -> (Resize, [Diagnostic]) {
            let text = "resize: \(yaml)\n"
            let root = try YAMLParser.parse(string: text, file: "r.yml")
            var builder = JobBuilder(reader: SchemaReader(file: "r.yml", text: text), folder: "/jobs")
            let entries = try XCTUnwrap(builder.reader.mapping(try XCTUnwrap(root.mappingValue?.first?.value), "resize"))
            builder.checkOptionKeys(entries, of: Resize.self, in: "resize")
            var stage = Resize()
            builder.readOptions(entries, into: &stage, in: "resize")
            return (stage, builder.reader.diagnostics)
        }
        XCTAssertEqual(Resize().parameters.text, #"{"width":100,"kernel":"lanczos3"}"#)
        let (stage, none) = try read("{width: 640, kernel: linear}")
        XCTAssert(none.isEmpty, "\(none)")
        XCTAssertEqual(stage.parameters.text, #"{"width":640,"kernel":"linear"}"#)
        let (_, errors) = try read("{widht: 640, kernel: cubic}")
        XCTAssertEqual(errors.map(\.message), ["unknown key 'widht' in resize; did you mean 'width'?",
                                               "resize.kernel must be one of lanczos3, linear, found 'cubic'"])
        let (_, range) = try read("{width: 0}")
        XCTAssertEqual(range.map(\.message), ["resize.width must be from 1 to 10000, found 0"])
    }

    // MARK: Helpers

    private func parameters(of job: Job) -> [String] {
        (job.importStage.map { [$0.parameters.text] } ?? []) + job.stages.map(\.parameters.text)
    }

    private func hash<S: DeclaredOptions>(_ stage: S, _ name: StageName, for format: ImageFormat? = nil) -> String {
        StageParameters(stage: name, parameters: format.map { stage.parameters(for: $0) } ?? stage.parameters, software: .current).hash
    }

    /// How many of the stage's properties an option binds.
    private func bound<S>(_ options: [StageOption<S>]) -> Int {
        options.map { option in
            switch option.kind {
            case .size: 2
            case .tuning: 0
            default: 1
            }
        }.reduce(0, +)
    }

    private func checkEveryOption<S: DeclaredOptions>(_: S.Type, _ name: StageName, base: [String: String], before: String = "",
                                                      in folder: String, file: StaticString = #filePath, line: UInt = #line,
                                                      _ stage: (Job) -> S?) throws {
        func load(_ entries: [String: String], _ label: String) throws -> S {
            let mapping = entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            let path = try TestSupport.write("version: 1\nstages:\n\(before)  - \(name.rawValue): {\(mapping)}\n", to: "\(label).yml", in: folder)
            return try XCTUnwrap(stage(try JobLoader.load(path: path)), file: file, line: line)
        }
        let defaults = try load(base, "\(name)-base")
        for option in S.options where option.isKey {
            var entries = base
            var reference = defaults
            switch option.kind {
            case .bool(let path): entries[option.key] = "\(!defaults[keyPath: path])"
            case .flag(let path, let on, let off): entries[option.key] = defaults[keyPath: path] ? off : on
            case .integer(let path, let range, _):
                entries[option.key] = "\(defaults[keyPath: path] == range.lowerBound ? range.upperBound : range.lowerBound)"
            case .optionalInteger(let path, let range):
                entries[option.key] = "\(defaults[keyPath: path] == range.lowerBound ? range.upperBound : range.lowerBound)"
            case .strings, .paths: entries[option.key] = "['/elsewhere/*.x']"
            case .choice(let choice): entries[option.key] = try XCTUnwrap(choice.allowed.first { $0 != choice.value(of: defaults) })
            case .size(let width, let height): entries[option.key] = "\(defaults[keyPath: width] + 1)x\(defaults[keyPath: height])"
            case .selection: entries[option.key] = "{camera: Nikon}"
            case .template(let path): entries[option.key] = "\"/elsewhere/\(defaults[keyPath: path].text)\""
            case .preset(let path): entries[option.key] = defaults[keyPath: path].name == "sepia" ? "noir" : "sepia"
            case .tuning(let preset, let primitive):
                // Against the same preset at its default: the option changes the recipe, and so the hash.
                entries["preset"] = preset
                reference = try load(entries, "\(name)-\(option.key)-base")
                guard case .number(let range) = primitive.mainParameter.kind else { XCTFail("\(option.key) tunes a number"); continue }
                entries[option.key] = "\((range.lowerBound + range.upperBound) / 3)"
            case .recorded: continue
            case .poster: entries[option.key] = "25%"
            }
            let varied = try load(entries, "\(name)-\(option.key)")
            // An option scoped to some formats (`raw:`) changes the hash of those photos' renditions, and no other's.
            let scoped = option.scope.flatMap { scope in ImageFormat.registered.first(where: scope.includes) }
            XCTAssertNotEqual(hash(varied, name, for: scoped), hash(reference, name, for: scoped), "\(name).\(option.key): \(entries)",
                              file: file, line: line)
            if let scope = option.scope {
                for format in ImageFormat.registered where !scope.includes(format) {
                    XCTAssertEqual(hash(varied, name, for: format), hash(reference, name, for: format),
                                   "\(name).\(option.key) leaves \(format)'s renditions alone", file: file, line: line)
                }
            }
            if case .tuning = option.kind { continue }
            XCTAssertNotEqual(JSONValue.object(option.parameters(of: varied)), JSONValue.object(option.parameters(of: reference)),
                              "\(name).\(option.key) reaches its own member of the parameters", file: file, line: line)
        }
    }

    private func checkDocs<S: DeclaredOptions>(_ defaults: S, _ section: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let table = try DocsTable(doc: "job-files.md", section: "### \(section)", header: "| option |")
        XCTAssertEqual(Set(table.keys), Set(S.options.filter(\.isKey).map(\.key)), "\(section): one row per key", file: file, line: line)
        for option in S.options where option.isKey {
            let row = try XCTUnwrap(table.row(option.key), "\(section).\(option.key)", file: file, line: line)
            let text = row.joined(separator: " | ")
            let cell = row[1].replacingOccurrences(of: "`", with: "")
            let (value, facts) = documented(option, defaults)
            XCTAssertEqual(cell, (option.documentedDefault ?? value).replacingOccurrences(of: "`", with: ""),
                           "\(section).\(option.key)'s default", file: file, line: line)
            for fact in facts + (option.documentedDefault == nil ? [] : [value]) {
                XCTAssert(text.contains(fact), "\(section).\(option.key): '\(fact)' not in \(text)", file: file, line: line)
            }
        }
    }

    /// An option's default as the docs write it, and what else its row must say (range, choices).
    private func documented<S>(_ option: StageOption<S>, _ stage: S) -> (String, [String]) {
        if option.required { return ("required", []) }
        switch option.kind {
        case .bool(let path): return ("\(stage[keyPath: path])", [])
        case .flag(let path, let on, let off): return (stage[keyPath: path] ? on : off, ["`\(on)`"])
        case .integer(let path, let range, _): return ("\(stage[keyPath: path])", ["\(range.lowerBound)–\(range.upperBound)"])
        case .optionalInteger(let path, let range):
            return (stage[keyPath: path].map(String.init) ?? "none", ["\(range.lowerBound)–\(range.upperBound)"])
        case .strings(let path), .paths(let path):
            let items = stage[keyPath: path]
            return (items.isEmpty ? "none" : items.map { "`\($0)`" }.joined(separator: ", "), [])
        case .choice(let choice): return ("`\(choice.value(of: stage))`", choice.allowed.map { "`\($0)`" })
        case .size(let width, let height): return ("`\(stage[keyPath: width])x\(stage[keyPath: height])`", ["1–16384"])
        case .selection(let path): return (stage[keyPath: path] == nil ? "none" : "?", [])
        case .template: return ("required", [])
        case .preset(let path): return ("`\(stage[keyPath: path].name)`", Preset.builtInNames.map { "`\($0)`" })
        case .tuning(let preset, let primitive):
            return (DocsText.defaultText(primitive.mainParameter), ["\(preset) only, \(DocsText.rangeText(primitive.mainParameter))"])
        case .recorded: return ("", [])
        case .poster: return ("`auto`", ["`25%`", "`3s`"])
        }
    }
}

/// A stage declared only here, to show what one table line gives an option.
private struct Resize: DeclaredOptions {
    enum Kernel: String, Sendable, CaseIterable { case lanczos3, linear }

    static let options: [StageOption<Resize>] = [
        .integer("width", \.width, in: 1...10_000),
        .choice("kernel", \.kernel),
    ]
    var width: Int = 100
    var kernel: Kernel = .lanczos3
}
