import Foundation
import XCTest
@testable import Stages
@testable import JobFile
@testable import Commands

/// The job schema on top of the YAML subset: every mistake at its file:line:col, all in one pass, exit 2.
final class JobFileTests: XCTestCase {
    /// The repository's jobs/ folder.
    static let jobsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("jobs").path

    func testEveryShippedJobIsValid() throws {
        let jobs = try FileManager.default.contentsOfDirectory(atPath: JobFileTests.jobsFolder).filter { $0.hasSuffix(".yml") }.sorted()
        XCTAssertEqual(jobs, ["ci-thumbnails.yml", "demo.yml", "nightly-reprocess.yml", "summer-sepia.yml"])
        let result = try TestSupport.album(["check"] + jobs.map { JobFileTests.jobsFolder + "/" + $0 })
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "", "check is silent when every file is valid")
    }

    /// Each broken job: its text, and the `line:col: error: …` lines album must print (all of them, in order).
    let broken: [(name: String, text: String, errors: [String])] = [
        ("typo", "version: 1\nstages:\n  - thumbnial: {size: 240x240}\n  - exprot: {to: \"o/{name}.jpg\"}\n",
         ["3:5: error: unknown stage 'thumbnial'; did you mean 'thumbnail'?", "4:5: error: unknown stage 'exprot'; did you mean 'export'?"]),
        ("tabs", "version: 1\nstages:\n\t- import: {from: x}\n", ["3:1: error: tabs are not allowed for indentation"]),
        ("types", "version: 1\nworkers: many\nstages:\n  - import: {from: x, recursive: yes, limit: -1}\n",
         ["2:10: error: workers (a number or auto) must be a whole number from 1 to 256, found the string 'many'",
          "4:34: error: import.recursive must be true or false, found the string 'yes'",
          "4:46: error: import.limit must be from 1 to"]),
        ("quote", "version: 1\nname: \"unterminated\nstages: []\n", ["2:7: error: unterminated double-quoted string"]),
        ("duplicate", "version: 1\nname: a\nname: b\nstages:\n  - import: {from: x}\n", ["3:1: error: duplicate key 'name' (first defined on line 2)"]),
        ("anchor", "version: 1\nvars: &v {A: 1}\nstages:\n  - import: {from: x}\n", ["2:7: error: anchors ('&name') are not supported"]),
        ("alias", "version: 1\nname: *n\nstages: []\n", ["2:7: error: aliases"]),
        ("date", "version: 1\nselect: {taken: 2024-13-01..2024-02-30}\nstages:\n  - import: {from: x}\n",
         ["2:17: error: select.taken: '2024-13-01' is not a date: month 13 does not exist"]),
        ("leap", "version: 1\nselect:\n  added: 2023-02-29\nstages:\n  - import: {from: x}\n",
         ["3:10: error: select.added: '2023-02-29' is not a date: 2023-02 has 28 days"]),
        ("variable", "version: 1\nstages:\n  - import: {from: \"${NOPE}/x\"}\n",
         ["3:20: error: undefined variable 'NOPE': define it under 'vars:', in the environment, or with --set NOPE=VALUE"]),
        ("zero", "version: 1\nstages:\n  - thumbnail: {size: 240x0}\n  - thumbnail: {size: 0x240}\n",
         ["3:23: error: thumbnail.size must have a width and height from 1 to 16384, found '240x0'",
          "4:23: error: thumbnail.size must have a width and height from 1 to 16384, found '0x240'"]),
        ("keys", "version: 1\nstages:\n  - export: {to: \"o/{nmae}.jpg\", fromm: image, quality: 101}\n  - filter: {preset: sepa, amount: 2}\n",
         ["3:18: error: export.to: unknown token {nmae}", "3:34: error: unknown key 'fromm' in export; did you mean 'from'?",
          "4:22: error: unknown preset 'sepa'; did you mean 'sepia'?"]),
        ("missing", "name: x\nstages:\n  - import: {recursive: false}\n  - export: {format: png}\n",
         ["1:1: error: missing required key 'version'", "3:13: error: import needs 'from'", "4:13: error: export needs 'to'"]),
        ("multidoc", "version: 1\nstages: []\n---\nversion: 1\n", ["3:1: error:"]),
    ]

    func testBrokenJobFilesExitTwoWithEveryErrorAtItsPlace() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for job in broken {
            try TestSupport.write(job.text, to: "\(job.name).yml", in: folder)
            let result = try TestSupport.album(["check", "\(job.name).yml"], in: folder)
            XCTAssertEqual(result.status, 2, "\(job.name): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("\(job.name).yml:") }
            XCTAssertGreaterThanOrEqual(lines.count, job.errors.count, "\(job.name): \(result.stderr)")
            for (expected, line) in zip(job.errors, lines) {
                XCTAssert(line.hasPrefix("\(job.name).yml:\(expected)"), "\(job.name): expected \(expected)\n got \(line)")
            }
            // The source line and a caret follow each error.
            XCTAssert(result.stderr.contains("^"), "\(job.name): a caret under the culprit")
        }
    }

    func testTheCaretPointsAtTheCulprit() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try TestSupport.write("version: 1\nstages:\n  - thumbnail: {quality: high}\n", to: "q.yml", in: folder)
        let result = try TestSupport.album(["check", "q.yml"], in: folder)
        XCTAssertEqual(result.stderr, """
            q.yml:3:26: error: thumbnail.quality must be a whole number from 1 to 100, found the string 'high'
              - thumbnail: {quality: high}
                                     ^

            """)
    }

    func testVariablesExpandFromSetThenVarsThenEnvironment() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = try TestSupport.write("version: 1\nvars: {A: from-vars}\ncatalogue: \"${A}/${HOME_ISH}\"\nstages:\n  - import: {from: x}\n", to: "v.yml", in: folder)
        let env = ["A": "from-env", "HOME_ISH": "h"]
        XCTAssertEqual(try JobLoader.load(path: path, environment: env).catalogue, folder + "/from-vars/h")
        XCTAssertEqual(try JobLoader.load(path: path, set: ["A": "from-set"], environment: env).catalogue, folder + "/from-set/h")
    }

    func testDefaultsAreWrittenOut() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = try TestSupport.write("version: 1\nstages:\n  - import: {from: p}\n  - filter: {preset: sepia}\n  - thumbnail:\n  - export: {to: \"o/{name}.jpg\"}\n", to: "d.yml", in: folder)
        let job = try JobLoader.load(path: path)
        XCTAssertEqual(job.name, "d")
        XCTAssertEqual(job.catalogue, folder + "/album")
        XCTAssertEqual(job.importStage?.from, [folder + "/p"])
        XCTAssertEqual((job.importStage as? ImportStage)?.mode, .reference)
        let filter = try XCTUnwrap(job.stages[0] as? FilterStage)
        XCTAssertEqual(filter.preset.recipe.canonical.text, #"[{"sepia":{"amount":0.85}}]"#, "the gallery app's sepia tone")
        let thumbnail = try XCTUnwrap(job.stages[1] as? ThumbnailStage)
        XCTAssertEqual([thumbnail.width, thumbnail.height, thumbnail.quality], [240, 240, 70])
        XCTAssertEqual(thumbnail.fit, .cover)
        XCTAssertEqual(thumbnail.format, .jpeg)
        let export = try XCTUnwrap(job.stages[2] as? ExportStage)
        XCTAssertEqual(export.quality, 90)
        XCTAssertEqual(export.from, .image)
        XCTAssertEqual(export.metadata, .stripGPS)
        XCTAssertEqual(export.to.root, folder + "/o")
    }

    func testPlanSaysWhatRunWouldDoAndWritesNothing() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/p/a.jpg", taken: "2008:04:20 10:00:00")
        try Fixture.jpeg(at: "\(folder)/p/b.jpg", variant: 1)
        try TestSupport.write("version: 1\nstages:\n  - import: {from: p}\n  - filter: {preset: noir, select: {taken: 2008-04-01..2008-04-30}}\n  - thumbnail:\n", to: "j.yml", in: folder)
        let before = try TestSupport.album(["plan", "j.yml"], in: folder)
        XCTAssertEqual(before.status, 0, before.stderr)
        XCTAssert(before.stdout.contains("  import           2           0         0"), before.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/album"), "plan writes nothing")
        XCTAssertEqual(try TestSupport.album(["run", "j.yml"], in: folder).status, 0)
        let after = try TestSupport.album(["run", "j.yml", "--dry-run"], in: folder)
        XCTAssert(after.stdout.contains("  import           0           2         0"), after.stdout)
        XCTAssert(after.stdout.contains("  filter           0           1         1"), after.stdout)
        XCTAssert(after.stdout.contains("  thumbnail        0           2         0"), after.stdout)
    }
}

final class ArgumentsTests: XCTestCase {
    func testEveryRepeatedOptionIsKeptInOrder() throws {
        // `--set` as given, every occurrence in order, beside the shared option that makes them job variables.
        let every = Option<[String]>(declaration: SharedOptions.set.declaration) { $0 }
        let declared = [SharedOptions.set.declaration, SharedOptions.workers.declaration]
        let arguments = try Arguments(parsing: ["run", "--set", "A=1", "job.yml", "--set=B=2", "--set", "A=3", "--workers", "2"],
                                      options: declared)
        XCTAssertEqual(try arguments.value(of: every), ["A=1", "B=2", "A=3"])
        XCTAssertEqual(try arguments.value(of: SharedOptions.set), ["A": "3", "B": "2"], "the last definition of a name wins")
        XCTAssertEqual(try arguments.value(of: SharedOptions.workers), 2)
        XCTAssertEqual(arguments.positionals, ["run", "job.yml"])
        XCTAssertThrowsError(try Arguments(parsing: ["--set"], options: declared))
    }
}
