import Foundation
import XCTest

/// The smaller things a newcomer met on the command line (issue 29, item 21), each through the built binary: a pace
/// for a stage that only failed, fish's descriptions of an option's values, "did you mean" for a template token, a
/// stage option at the wrong indentation, `-c` naming the folder above a catalogue, bundled short flags, and
/// `FORCE_COLOR`.
final class CommandLineDetailTests: XCTestCase {
    /// A folder with `photos/` and `job.yml` holding `stages` (the lines under `stages:`).
    func makeFolder(stages: String, photos: Int = 2) throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<photos { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 96, height: 64, variant: i) }
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try TestSupport.write("version: 1\nname: details\nstages:\n" + stages, to: "job.yml", in: folder)
        return folder
    }

    func testAStageThatOnlyFailedHasNoPace() throws {
        let folder = try makeFolder(stages: "  - import: {from: photos}\n  - thumbnail: {size: 32x32}\n", photos: 0)
        try TestSupport.write("these are notes, not a photo", to: "photos/notes.jpg", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 1, run.stderr)
        let row = try XCTUnwrap(run.stderr.split(separator: "\n").first { $0.hasPrefix("  import ") }, run.stderr)
        let cells = row.split(separator: " ")
        XCTAssertEqual(cells[1...3], ["0", "0", "1"], "import: nothing done, one failed:\n\(run.stderr)")
        XCTAssertEqual(cells.last, "-", "a text file that fails in microseconds is no pace of thousands a second:\n\(run.stderr)")
        XCTAssert(run.stderr.contains("photos per busy s: its done steps over the busy time"), run.stderr)
    }

    func testFishDescribesEachValueOfAnOptionByItsOwnClause() throws {
        try Probe.require("fish", package: "fish")
        let folder = try TestSupport.temporaryFolder(self)
        let script = try TestSupport.album(["completion", "fish"])
        XCTAssertEqual(script.status, 0, script.stderr)
        let path = try TestSupport.write(script.stdout, to: "album.fish", in: folder)
        let driver = try TestSupport.write("""
            source $argv[1]
            complete -C 'album run --log-format '
            echo ---
            complete -C 'album run --distribute '
            """, to: "driver.fish", in: folder)
        let result = try Tool.run(["fish", "--no-config", driver, path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let blocks = result.stdout.components(separatedBy: "---\n").map { block in
            Dictionary(uniqueKeysWithValues: block.split(separator: "\n").map { line -> (String, String) in
                let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            })
        }
        XCTAssertEqual(blocks[0]["text"], "progress and summary on stderr (default)", result.stdout)
        XCTAssertEqual(blocks[0]["json"], "JSON Lines events on stdout (docs/events.md)", result.stdout)
        XCTAssert(blocks[0]["github"]?.hasPrefix("GitHub Actions ::error annotations on stdout") == true, result.stdout)
        XCTAssertEqual(blocks[1]["local"], "chunk processes here, then the merge", result.stdout)
        XCTAssertEqual(blocks[1]["slurm"], "an sbatch job array and a merge job", result.stdout)
    }

    func testATemplateTokenTypoGetsDidYouMean() throws {
        let folder = try makeFolder(stages: "  - import: {from: photos}\n  - export: {to: \"out/{nme}.jpg\"}\n")
        let check = try TestSupport.album(["check", "job.yml"], in: folder)
        XCTAssertEqual(check.status, 2, check.stderr)
        XCTAssert(check.stderr.contains("job.yml:5:18: error: export.to: unknown token {nme}; did you mean {name}? valid tokens are {name}"),
                  check.stderr)
    }

    func testAStageOptionAtTheStageNamesIndentationIsPointedAtWithAHint() throws {
        let folder = try makeFolder(stages: "  - import:\n    from: photos\n    recursive: true\n  - thumbnail: {size: 32x32}\n")
        let check = try TestSupport.album(["check", "job.yml"], in: folder)
        XCTAssertEqual(check.status, 2, check.stderr)
        XCTAssert(check.stderr.contains("job.yml:5:5: error: 'from' lines up with 'import', so it is read as a second key of this list item, "
                                        + "not as one of import's options: indent 'from' (and the options after it) further than 'import'"),
                  "the line of the option, not of '- import:': \(check.stderr)")
        XCTAssertFalse(check.stderr.contains("each stage is a mapping with one key"), check.stderr)
        // Indented, the same options are import's.
        try TestSupport.write("version: 1\nname: details\nstages:\n  - import:\n      from: photos\n      recursive: true\n",
                              to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["check", "job.yml"], in: folder).status, 0)
    }

    func testACatalogueOptionNamingTheFolderAboveACatalogueSuggestsIt() throws {
        let folder = try makeFolder(stages: "  - import: {from: photos}\n")
        let library = folder + "/library"
        let made = try TestSupport.album(["import", "photos", "--catalogue", library + "/.album"], in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        for command in [["ls", "-c", library], ["show", "photos/p0.jpg", "-c", library], ["verify", "--catalogue", library]] {
            let result = try TestSupport.album(command, in: folder)
            XCTAssertEqual(result.status, 3, result.stderr)
            XCTAssert(result.stderr.contains("\(library)/.album holds a catalogue: did you mean --catalogue \(library)/.album?"),
                      "album \(command.joined(separator: " ")): \(result.stderr)")
        }
    }

    func testShortFlagsBundleAsGetoptsDo() throws {
        let folder = try makeFolder(stages: "  - import: {from: photos}\n")
        let bundled = try TestSupport.album(["run", "job.yml", "-qn"], in: folder)
        let apart = try TestSupport.album(["run", "job.yml", "-q", "-n"], in: folder)
        XCTAssertEqual(bundled.status, 0, bundled.stderr)
        XCTAssertEqual(bundled.stdout, apart.stdout)
        XCTAssert(bundled.stdout.contains("plan for job 'details'"), "-n: a dry run, the plan: \(bundled.stdout)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/album"), "nothing ran")
        // The last letter may take the next item as its value: -qj 2 is -q -j 2.
        let run = try TestSupport.album(["run", "job.yml", "-qj", "2"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "-q: no summary")
        let ids = try TestSupport.album(["ls", "-qc", folder + "/album"], in: folder)
        XCTAssertEqual(ids.stdout.split(separator: "\n").count, 2, ids.stdout)
        // A letter the command does not declare is an unknown option, named whole.
        let unknown = try TestSupport.album(["ls", "-qz"], in: folder)
        XCTAssertEqual(unknown.status, 2)
        XCTAssert(unknown.stderr.contains("unknown option '-qz'"), unknown.stderr)
    }

    func testForceColourMakesFailuresRedOnAPipeUnlessNoColourIsSet() throws {
        let folder = try makeFolder(stages: "  - import: {from: photos}\n", photos: 0)
        try TestSupport.write("not a photo", to: "photos/notes.jpg", in: folder)
        let red = "\u{1B}[31m"
        let cases: [([String: String], Bool)] = [
            (["FORCE_COLOR": "1", "NO_COLOR": ""], true),
            (["FORCE_COLOR": "", "NO_COLOR": ""], false),
            (["FORCE_COLOR": "0", "NO_COLOR": ""], false),
            (["FORCE_COLOR": "1", "NO_COLOR": "1"], false),
        ]
        for (environment, coloured) in cases {
            let run = try TestSupport.album(["run", "job.yml", "--force"], in: folder, environment: environment)
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertEqual(run.stderr.contains(red + "album: import failed: \(folder)/photos/notes.jpg"), coloured, "\(environment): \(run.stderr)")
            if !coloured { XCTAssertFalse(run.stderr.contains("\u{1B}"), "\(environment): \(run.stderr)") }
        }
    }
}
