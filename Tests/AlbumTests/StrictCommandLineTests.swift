import Foundation
import XCTest
@testable import Commands

/// Issue 29, items 13–15: the command line as strict as the job file. A selector of `album ls` is refused in the
/// words its `select:` twin is; `album help` refuses a name that is no command and gives one command's manual
/// page; `album parse` reads standard input for `-` or no file; `album merge` of a folder that is no run folder is a
/// usage error (exit 2), not an environment one.
final class StrictCommandLineTests: XCTestCase {
    /// Each `ls` selector against its `select:` twin in a job file: the CLI's error is the job file's, with
    /// `--key` for `select.key`.
    func testEverySelectorIsRefusedInTheJobFilesWords() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let cases: [(option: String, key: String, value: String)] = [
            ("--format", "format", "jpg"), ("--format", "format", "bogus"), ("--missing", "missing", "thumbnails"),
            ("--failed", "failed", "yesterday"), ("--taken", "taken", "2008-13"), ("--added", "added", "x"),
            ("--path", "path", ""),
        ]
        for (option, key, value) in cases {
            try TestSupport.write("version: 1\nselect: {\(key): '\(value)'}\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
            let check = try TestSupport.album(["check", "job.yml"], in: folder)
            XCTAssertEqual(check.status, 2, check.stderr)
            let jobWords = try XCTUnwrap(check.stderr.components(separatedBy: "error: select.").dropFirst().first?
                .components(separatedBy: "\n").first, check.stderr)
            let ls = try TestSupport.album(["ls", "\(option)=\(value)", "--catalogue", "album"], in: folder)
            XCTAssertEqual(ls.status, 2, "\(option) \(value): \(ls.stdout)\(ls.stderr)")
            let first = ls.stderr.components(separatedBy: "\n").first ?? ""
            XCTAssertEqual(first, "album: error: --" + jobWords, "\(option) \(value) says what select.\(key) says")
        }
        let near = try TestSupport.album(["ls", "--format", "jpg"], in: folder)
        XCTAssert(near.stderr.contains("did you mean 'jpeg'?"), near.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/album"), "nothing was opened or made")
    }

    func testHelpRefusesANameThatIsNoCommandAndGivesOneCommandsManualPage() throws {
        let unknown = try TestSupport.album(["help", "nosuch"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stdout, "")
        XCTAssert(unknown.stderr.hasPrefix("album: error: unknown command 'nosuch'"), unknown.stderr)
        XCTAssertEqual(try TestSupport.album(["--help", "rnu"]).status, 2)
        XCTAssert(try TestSupport.album(["help", "rnu"]).stderr.contains("did you mean 'run'?"))

        let whole = try TestSupport.album(["help", "--man"])
        XCTAssertEqual(whole.status, 0)
        let sections = { (page: String) in page.split(separator: "\n").filter { $0.hasPrefix(".SS ") }.map(String.init) }
        XCTAssertEqual(sections(whole.stdout).count, Album.commands.count)
        let run = try TestSupport.album(["help", "--man", "run"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(sections(run.stdout), [".SS \"album run\""], "only run's section")
        XCTAssert(run.stdout.hasPrefix(".TH ALBUM 1"), run.stdout)
        XCTAssertEqual(try TestSupport.album(["help", "run", "--man"]).stdout, run.stdout)
        XCTAssertEqual(try TestSupport.album(["help", "--man", "nosuch"]).status, 2)
    }

    func testParseReadsStandardInputForADashOrNoFile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for arguments in [["parse", "-"], ["parse"], ["parse", "-", "--pretty"]] {
            let result = try TestSupport.album(arguments, in: folder, stdin: "a: [1, two]\n")
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [Any]]
            XCTAssertEqual(value?["a"]?.count, 2, result.stdout)
        }
        let bad = try TestSupport.album(["parse", "-"], in: folder, stdin: "a: [1\n")
        XCTAssertEqual(bad.status, 2)
        XCTAssert(bad.stderr.hasPrefix("<stdin>:"), "the diagnostic names standard input: \(bad.stderr)")
        let two = try TestSupport.album(["parse", "a.yml", "b.yml"], in: folder)
        XCTAssertEqual(two.status, 2)
        XCTAssert(two.stderr.contains("parse takes one file (or none, or '-', for standard input), got 2"), two.stderr)
        XCTAssert(ParseCommand.usage.contains("[FILE]"))
    }

    func testMergeOfAFolderThatIsNoRunFolderIsAUsageError() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        for given in ["photos", "nothere"] {
            let merge = try TestSupport.album(["merge", given], in: folder)
            XCTAssertEqual(merge.status, 2, merge.stderr)
            XCTAssert(merge.stderr.contains("\(folder)/\(given) is not a distributed run folder"), merge.stderr)
        }
        let status = try TestSupport.album(["dist", "status", "photos"], in: folder)
        XCTAssertEqual(status.status, 2, status.stderr)
        let help = try TestSupport.album(["merge", "--help"])
        XCTAssert(help.stdout.replacingOccurrences(of: "\n", with: " ").contains("2 RUNDIR is not a distributed run folder"), help.stdout)
    }
}
