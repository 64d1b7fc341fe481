import Foundation
import System
import Vips
import XCTest
@testable import Catalogue
@testable import Stages
@testable import JobFile
@testable import Commands

/// The command line's conventions (issue 19), each through the built binary: short flags that work like their long
/// forms and that `--help` shows, `size: 240` as a square, `--taken`/`--added` by month and year, and a plain
/// sentence for a job file that is not there.
final class ConventionTests: XCTestCase {
    /// The short flag of each long option that has one, wherever a command declares the long option.
    static let shortFlags = ["--catalogue": "-c", "--workers": "-j", "--out": "-o", "--dry-run": "-n", "--help": "-h"]

    /// A folder with one photo and a job that imports it and makes its thumbnail.
    func makeFolder() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 64}\n", to: "job.yml", in: folder)
        return folder
    }

    // MARK: Short flags

    func testEveryCommandsHelpShowsItsShortFlags() throws {
        var seen: Set<String> = []
        for command in Album.commands {
            let configuration = command.configuration
            let help = try TestSupport.album([configuration.name, "--help"])
            XCTAssertEqual(help.status, 0, configuration.name)
            for option in command.allOptions {
                guard let short = ConventionTests.shortFlags[option.name] else { continue }
                XCTAssertEqual(option.aliases, [short], "\(configuration.name) \(option.name)")
                XCTAssert(help.stdout.contains("\n  \(short), \(option.name)"), "\(configuration.name) --help shows \(short):\n\(help.stdout)")
                seen.insert(option.name)
            }
        }
        XCTAssertEqual(seen, Set(ConventionTests.shortFlags.keys), "every short flag is on some command")
        let top = try TestSupport.album(["--help"])
        XCTAssert(top.stdout.contains("\n  -V, --version"), top.stdout)
        XCTAssert(top.stdout.contains("\n  -h, --help"), top.stdout)
    }

    func testShortVersionIsTheVersion() throws {
        let long = try TestSupport.album(["--version"])
        let short = try TestSupport.album(["-V"])
        XCTAssertEqual(short.status, 0, short.stderr)
        XCTAssertEqual(short.stdout, long.stdout)
        XCTAssert(short.stdout.hasPrefix("album "), short.stdout)
        XCTAssertEqual(short.stderr, "", "not 'did you mean ls?'")
    }

    /// `-c DIR` is `--catalogue DIR` in every command that takes it: the same missing-value error, and the folder
    /// given is the one used (created by `run` and `import`, planned against by `plan`, and missing for the rest).
    func testShortCatalogueIsTheCatalogueInEveryCommand() throws {
        let takers = Album.commands.filter { $0.options.contains { $0.name == "--catalogue" } }
        XCTAssertEqual(Set(takers.map { $0.configuration.name }), Set(CommandLineTests.catalogueCommands.keys))
        for command in takers {
            let name = command.configuration.name
            let folder = try makeFolder()
            let given = [name] + CommandLineTests.catalogueCommands[name, default: []]
            let missing = try TestSupport.album(given + ["-c"], in: folder)
            XCTAssertEqual(missing.status, 2, "\(name): \(missing.stderr)")
            XCTAssert(missing.stderr.contains("album: error: --catalogue needs a value\nusage: album \(name)"), "\(name): \(missing.stderr)")
            let elsewhere = try TestSupport.album(given + ["-c", "nowhere"], in: folder)
            switch name {
            case "run", "import", "watch":
                XCTAssertEqual(elsewhere.status, 0, "\(name): \(elsewhere.stderr)")
                XCTAssert(FileManager.default.fileExists(atPath: "\(folder)/nowhere/\(Catalogue.databaseName)"), name)
            case "plan":
                XCTAssertEqual(elsewhere.status, 0, elsewhere.stderr)
                XCTAssert(elsewhere.stdout.contains("/nowhere\n"), elsewhere.stdout)
            default:
                XCTAssertEqual(elsewhere.status, 3, "\(name): \(elsewhere.stderr)")
                XCTAssert(elsewhere.stderr.contains("no catalogue at /") && elsewhere.stderr.contains("/nowhere"), "\(name): \(elsewhere.stderr)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/album"), "\(name) used the catalogue -c gave")
        }
    }

    func testShortWorkersOutAndDryRunWorkLikeTheirLongForms() throws {
        let folder = try makeFolder()
        for (short, long) in [(["run", "job.yml", "-j", "0"], ["run", "job.yml", "--workers", "0"]),
                              (["import", "photos", "-j", "300"], ["import", "photos", "--workers", "300"])] {
            let a = try TestSupport.album(short, in: folder), b = try TestSupport.album(long, in: folder)
            XCTAssertEqual(a.status, 2, a.stderr)
            XCTAssertEqual(a.stderr, b.stderr, "-j is checked as --workers is")
        }
        let dry = try TestSupport.album(["run", "job.yml", "-n", "-c", "cat"], in: folder)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssert(dry.stdout.contains("  import           1           0         0"), dry.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/cat"), "-n writes nothing")

        let run = try TestSupport.album(["run", "job.yml", "-j", "1", "-c", "cat"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let listed = try TestSupport.album(["ls", "-c", "cat", "--json"], in: folder)
        XCTAssertEqual(listed.stdout, try TestSupport.album(["ls", "--catalogue", "cat", "--json"], in: folder).stdout)
        XCTAssertEqual(try paths(listed.stdout), [folder + "/photos/a.jpg"])

        let short = try TestSupport.album(["report", "-c", "cat", "-o", "short.html"], in: folder)
        let long = try TestSupport.album(["report", "--catalogue", "cat", "--out", "long.html"], in: folder)
        XCTAssertEqual(short.status, 0, short.stderr)
        XCTAssertEqual(long.status, 0, long.stderr)
        for page in ["short.html", "long.html"] {
            XCTAssertGreaterThan(FileStatus.of(folder + "/" + page)?.size ?? 0, 0, "-o writes the page as --out does: \(page)")
        }
    }

    // MARK: size: N

    func testASizeOfOneNumberIsASquare() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg", width: 320, height: 200)
        try TestSupport.write("version: 1\ncatalogue: cat\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 240}\n", to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let thumbnails = try files(under: folder + "/cat/thumbnails")
        XCTAssertEqual(thumbnails.count, 1, "\(thumbnails)")
        let image = try Image.open(FileBytes(path: thumbnails[0]), sequential: true, failOn: .error)
        XCTAssertEqual([image.width, image.height], [240, 240], "size: 240 is 240x240, as vipsthumbnail -s 240")

        for (text, size) in [("240", [240, 240]), ("\"96\"", [96, 96]), ("240x160", [240, 160]), ("16384", [16384, 16384])] {
            let path = try TestSupport.write("version: 1\nstages:\n  - thumbnail: {size: \(text)}\n", to: "s.yml", in: folder)
            let thumbnail = try XCTUnwrap(try JobLoader.load(path: path).stages.first as? ThumbnailStage)
            XCTAssertEqual([thumbnail.width, thumbnail.height], size, text)
        }
    }

    func testABadSizeIsAPlainErrorAtItsPlace() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let cases = [
            ("0x240", "thumbnail.size must have a width and height from 1 to 16384, found '0x240'"),
            ("0", "thumbnail.size must have a width and height from 1 to 16384, found '0'"),
            ("16385", "thumbnail.size must have a width and height from 1 to 16384, found '16385'"),
            ("0o17", "thumbnail.size must be WIDTHxHEIGHT or one number for a square, e.g. 240x160 or 240, found '0o17'"),
            ("240px", "thumbnail.size must be WIDTHxHEIGHT or one number for a square, e.g. 240x160 or 240, found '240px'"),
            ("-240", "thumbnail.size must be WIDTHxHEIGHT or one number for a square, e.g. 240x160 or 240, found '-240'"),
            ("2.5", "thumbnail.size must be WIDTHxHEIGHT or one number for a square, e.g. 240x160 or 240, found the number 2.5"),
        ]
        for (text, message) in cases {
            try TestSupport.write("version: 1\nstages:\n  - thumbnail: {size: \(text)}\n", to: "j.yml", in: folder)
            let result = try TestSupport.album(["check", "j.yml"], in: folder)
            XCTAssertEqual(result.status, 2, text)
            let caret = String(repeating: " ", count: 22) + "^"
            XCTAssertEqual(result.stderr, "j.yml:3:23: error: \(message)\n  - thumbnail: {size: \(text)}\n\(caret)\n", text)
            XCTAssertFalse(result.stderr.contains("hexadecimal"), text)
        }
    }

    // MARK: Dates by month and year

    /// Photos taken in March and April 2008 and in 2009, and one undated, imported into `cat`.
    func makeDatedCatalogue() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        let taken = ["mar15": "2008:03:15 09:00:00", "apr20": "2008:04:20 10:00:00", "apr30": "2008:04:30 23:00:00", "jan09": "2009:01:01 00:30:00"]
        for (variant, (name, date)) in taken.sorted(by: { $0.key < $1.key }).enumerated() {
            try Fixture.jpeg(at: "\(folder)/photos/\(name).jpg", taken: date, variant: variant)
        }
        try Fixture.jpeg(at: "\(folder)/photos/undated.jpg", variant: 9)
        let imported = try TestSupport.album(["import", "photos", "-c", "cat"], in: folder)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        return folder
    }

    func testTakenAndAddedTakeAMonthOrAYearAloneOrAtEitherEndOfARange() throws {
        let folder = try makeDatedCatalogue()
        let cases: [(String, [String])] = [
            ("2008-04", ["apr20", "apr30"]),
            ("2008", ["apr20", "apr30", "mar15"]),
            ("2008-03..2008-04", ["apr20", "apr30", "mar15"]),
            ("2008-04..2009", ["apr20", "apr30", "jan09"]),
            ("2008-04..", ["apr20", "apr30", "jan09"]),
            ("..2008-03", ["mar15"]),
            ("2008..2008-03-31", ["mar15"]),
            ("2008-04-20", ["apr20"]),
            ("2008-04-01..2008-04-29", ["apr20"]),
            ("2008-02", []),
        ]
        for (range, expected) in cases {
            let result = try TestSupport.album(["ls", "--taken", range, "-c", "cat", "--json"], in: folder)
            XCTAssertEqual(result.status, 0, "\(range): \(result.stderr)")
            XCTAssertEqual(try names(result.stdout), expected, range)
        }
        // --added: the photos were all added now, by the catalogue's own clock.
        let all = try TestSupport.album(["ls", "-c", "cat", "--json"], in: folder)
        let added = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])?.first?["added"] as? String)
        for range in [String(added.prefix(4)), String(added.prefix(7)), "\(added.prefix(4))..", "2000..\(added.prefix(7))"] {
            let result = try TestSupport.album(["ls", "--added", range, "-c", "cat", "--json"], in: folder)
            XCTAssertEqual(try names(result.stdout).count, 5, "\(range): \(result.stderr)")
        }
        XCTAssertEqual(try names(try TestSupport.album(["ls", "--added", "2000", "-c", "cat", "--json"], in: folder).stdout), [])

        for (range, message) in [("2008-13", "'2008-13' is not a date: month 13 does not exist"),
                                 ("2008-4", "'2008-4' is not a date; expected YYYY-MM-DD, YYYY-MM or YYYY"),
                                 ("08", "'08' is not a date; expected YYYY-MM-DD, YYYY-MM or YYYY"),
                                 ("2008-05..2008-04", "the range 2008-05..2008-04 ends before it starts")] {
            let result = try TestSupport.album(["ls", "--taken", range, "-c", "cat"], in: folder)
            XCTAssertEqual(result.status, 2, range)
            XCTAssert(result.stderr.hasPrefix("album: error: --taken: \(message)"), "\(range), in select.taken's words: \(result.stderr)")
        }
    }

    /// A job's `select: {taken: 2008}` (a number to YAML) and `taken: 2008-03..2008-04` read as `--taken` does.
    func testAJobSelectsByMonthAndYearToo() throws {
        let folder = try makeDatedCatalogue()
        for (select, left) in [("2008", ["jan09", "undated"]), ("2008-03..2008-04", ["jan09", "undated"]), ("2008-04", ["jan09", "mar15", "undated"])] {
            try TestSupport.write("version: 1\ncatalogue: cat\nselect: {taken: \(select)}\nstages:\n  - thumbnail: {size: 32}\n", to: "t.yml", in: folder)
            let run = try TestSupport.album(["run", "t.yml"], in: folder)
            XCTAssertEqual(run.status, 0, "\(select): \(run.stderr)")
            let missing = try TestSupport.album(["ls", "--missing", "thumbnail", "-c", "cat", "--json"], in: folder)
            XCTAssertEqual(try names(missing.stdout), left, select)
            try FileManager.default.removeItem(atPath: folder + "/cat")
            XCTAssertEqual(try TestSupport.album(["import", "photos", "-c", "cat"], in: folder).status, 0)
        }
        try TestSupport.write("version: 1\nselect: {taken: 2008-13}\nstages:\n  - thumbnail: {size: 32}\n", to: "bad.yml", in: folder)
        let bad = try TestSupport.album(["check", "bad.yml"], in: folder)
        XCTAssertEqual(bad.status, 2)
        XCTAssert(bad.stderr.hasPrefix("bad.yml:2:17: error: select.taken: '2008-13' is not a date: month 13 does not exist"), bad.stderr)
    }

    // MARK: A missing job file

    func testAMissingJobFileIsSaidPlainly() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for command in ["run", "plan", "check"] {
            let result = try TestSupport.album([command, "missing.yml"], in: folder)
            XCTAssertEqual(result.status, 2, command)
            XCTAssertEqual(result.stderr, "album: error: no such job file: missing.yml\n", command)
            XCTAssertEqual(result.stdout, "", command)
        }
        try FileManager.default.createDirectory(atPath: folder + "/jobs", withIntermediateDirectories: true)
        let folderAsJob = try TestSupport.album(["run", "jobs"], in: folder)
        XCTAssertEqual(folderAsJob.status, 2)
        XCTAssertEqual(folderAsJob.stderr, "album: error: cannot read the job file jobs: not a regular file\n")
        // check goes on to the other files, and says what is wrong with each.
        try TestSupport.write("version: 1\nstages:\n  - thumbnial: {}\n", to: "typo.yml", in: folder)
        try TestSupport.write("version: 1\nstages:\n  - thumbnail: {}\n", to: "good.yml", in: folder)
        let several = try TestSupport.album(["check", "missing.yml", "good.yml", "typo.yml"], in: folder)
        XCTAssertEqual(several.status, 2)
        XCTAssert(several.stderr.hasPrefix("album: error: no such job file: missing.yml\ntypo.yml:3:5: error: unknown stage 'thumbnial'"), several.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["good.yml", "jobs", "typo.yml"], "no catalogue made")
    }

    // MARK: Helpers

    /// The files under `folder`, at any depth.
    func files(under folder: String) throws -> [String] {
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder))
        return enumerator.compactMap { $0 as? String }.map { folder + "/" + $0 }.filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }

    /// The originals' paths in `ls --json` output.
    func paths(_ json: String) throws -> [String] {
        let photos = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]], json)
        return photos.compactMap { $0["path"] as? String }
    }

    /// The originals' names without extension in `ls --json` output, sorted.
    func names(_ json: String) throws -> [String] {
        try paths(json).map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }.sorted()
    }
}
