import Foundation
import XCTest
import System

/// Issue 29, item 9: text album did not write (file names, captions, libvips' and the system's messages) never sends
/// a control character to a terminal or a CI log, in any output format. Text output writes each one out (`\x1B`,
/// `\n`), so a file name holding a line feed starts no line of its own (no forged `::error` or `::add-mask::`
/// workflow command), and ESC or BEL from a caption or a name neither recolours nor rings a terminal; JSON keeps
/// the text itself, escaped by JSON's rules; GitHub annotations escape `%`, CR and LF, and `:` and `,` in
/// properties.
final class ControlCharacterTests: XCTestCase {
    static let colourful = "a\u{1B}[31mred\u{07}.jpg"
    static let forged = "bad\n::error ::forged.jpg"
    static let masking = "mask\n::add-mask::secret.jpg"

    /// `photos/` with a photo whose name holds ESC and BEL, two text files named with a line feed and a workflow
    /// command after it, and a job that imports and thumbnails them.
    func album() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: folder + "/photos/" + ControlCharacterTests.colourful, width: 64, height: 48)
        try Fixture.jpeg(at: folder + "/photos/plain.jpg", width: 64, height: 48, variant: 1)
        try TestSupport.write("not an image", to: "photos/" + ControlCharacterTests.forged, in: folder)
        try TestSupport.write("not an image", to: "photos/" + ControlCharacterTests.masking, in: folder)
        try TestSupport.write("""
            version: 1
            name: "job\\e]0;title\\a"
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        return folder
    }

    /// No control byte but line feeds (and tabs) in `text`: no ESC, BEL, CR, DEL or C1 character.
    func assertNoControls(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F..<0xA0).contains($0.value) }
        XCTAssert(controls.isEmpty, "\(what) sends \(controls.map { String(format: "U+%04X", $0.value) }): \(text.debugDescription)",
                  file: file, line: line)
    }

    /// Lines that GitHub's runner would read as a workflow command (`::name …::`).
    func commands(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { $0.hasPrefix("::") }
    }

    func testAFileNameForgesNoWorkflowCommandAndSendsNoControlInEveryLogFormat() throws {
        let folder = try album()
        let github = try TestSupport.album(["run", "job.yml", "--log-format", "github", "--verbose"], in: folder,
                                           environment: ["GITHUB_WORKSPACE": folder, "GITHUB_STEP_SUMMARY": ""])
        XCTAssertEqual(github.status, 1, github.stderr)
        XCTAssertEqual(commands(github.stderr), [], "stderr holds no workflow command: \(github.stderr)")
        let annotations = commands(github.stdout)
        XCTAssertEqual(annotations.count, 2, github.stdout)
        XCTAssert(annotations.allSatisfy { $0.hasPrefix("::error file=photos/") }, "album's own annotations only: \(annotations)")
        XCTAssert(annotations.contains { $0.hasPrefix("::error file=photos/bad%0A%3A%3Aerror %3A%3Aforged.jpg,title=album import failed::") },
                  "the line feed, : and , of a property are escaped: \(annotations)")
        assertNoControls(github.stdout, "github stdout")
        assertNoControls(github.stderr, "github stderr")
        XCTAssert(github.stderr.contains(#"photos/bad\n::error ::forged.jpg: not an image"#), "the name is shown, on one line: \(github.stderr)")
        XCTAssert(github.stderr.contains(#"photos/a\x1B[31mred\x07.jpg"#), "--verbose names the photo, shown: \(github.stderr)")
        XCTAssert(github.stderr.contains(#"job 'job\x1B]0;title\x07'"#), "the job's name too: \(github.stderr)")

        let text = try TestSupport.album(["run", "job.yml", "--force", "--verbose", "--progress=plain"], in: folder)
        XCTAssertEqual(text.status, 1, text.stderr)
        XCTAssertEqual(commands(text.stderr), [], text.stderr)
        assertNoControls(text.stderr, "text stderr")
        XCTAssert(text.stderr.contains(#"  import     "# + folder + #"/photos/mask\n::add-mask::secret.jpg: not an image"#), text.stderr)

        let json = try TestSupport.album(["run", "job.yml", "--force", "--log-format", "json"], in: folder)
        assertNoControls(json.stdout, "json stdout")
        let paths = json.stdout.split(separator: "\n").compactMap { line -> String? in
            let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return event?["path"] as? String
        }
        XCTAssert(paths.contains(folder + "/photos/" + ControlCharacterTests.forged), "JSON keeps the name itself: \(paths)")

        let plan = try TestSupport.album(["plan", "job.yml", "--verbose", "--force"], in: folder)
        XCTAssertEqual(commands(plan.stdout), [], plan.stdout)
        assertNoControls(plan.stdout + plan.stderr, "plan")

        // Errors that quote a path given on the command line: one line each too.
        let missing = try TestSupport.album(["import", "gone\n::error ::forged\u{1B}.jpg"], in: folder)
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertEqual(commands(missing.stderr), [], missing.stderr)
        assertNoControls(missing.stderr, "import's error")
        XCTAssert(missing.stderr.contains(#"/gone\n::error ::forged\x1B.jpg does not exist"#), missing.stderr)
        let unknown = try TestSupport.album(["show", "photos/none\n::add-mask::x"], in: folder)
        XCTAssertEqual(unknown.status, 2, unknown.stderr)
        XCTAssertEqual(commands(unknown.stderr), [], unknown.stderr)
    }

    func testCaptionsAndNamesAreShownNotSentByLsShowAndRuns() throws {
        let folder = try album()
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 1)
        let ids = try TestSupport.album(["ls", "-q"], in: folder).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(ids.count, 2)
        let caption = "title\u{1B}]0;owned\u{07}\nsecond line \u{9B}31m"
        let colourful = try XCTUnwrap(ids.first { id in
            (try? TestSupport.album(["show", id], in: folder).stdout.contains("a\\x1B[31mred")) == true
        })
        let set = try TestSupport.album(["caption", colourful, caption], in: folder)
        XCTAssertEqual(set.status, 0, set.stderr)
        assertNoControls(set.stderr, "caption's note")

        let ls = try TestSupport.album(["ls"], in: folder)
        XCTAssertEqual(ls.status, 0, ls.stderr)
        assertNoControls(ls.stdout, "ls")
        XCTAssertEqual(ls.stdout.split(separator: "\n").count, 3, "a header and one line per photo: \(ls.stdout)")
        XCTAssert(ls.stdout.contains(#"title\x1B]0;owned\x07 second line \x9B…"#), "the caption, clipped and shown: \(ls.stdout)")
        XCTAssert(ls.stdout.contains(#"/photos/a\x1B[31mred\x07.jpg"#), ls.stdout)

        let show = try TestSupport.album(["show", colourful], in: folder)
        XCTAssertEqual(show.status, 0, show.stderr)
        assertNoControls(show.stdout, "show")
        XCTAssert(show.stdout.contains(#"caption  title\x1B]0;owned\x07\nsecond line \x9B31m"#), show.stdout)

        let json = try TestSupport.album(["ls", "--json"], in: folder)
        assertNoControls(json.stdout, "ls --json")
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssert(photos.contains { $0["caption"] as? String == caption }, "JSON keeps the caption itself, C1 as \\u009B: \(json.stdout)")

        let runs = try TestSupport.album(["runs"], in: folder)
        assertNoControls(runs.stdout + runs.stderr, "runs")
        XCTAssert(runs.stdout.contains(#"job\x1B]0;title\x07"#), runs.stdout)
    }

    /// The one function behind every text printer: control characters written out, a non-UTF-8 byte as `\xE9`.
    func testShownWritesOutEveryControlCharacter() {
        XCTAssertEqual("a\u{1B}[2Kb\rc\td\ne\u{9B}f\u{7F}\u{0}".shown, #"a\x1B[2Kb\rc\td\ne\x9Bf\x7F\x00"#)
        XCTAssertEqual(("caf" + NativePath.string([0xE9]) + ".jpg").shown, #"caf\xE9.jpg"#)
        XCTAssertEqual("a\u{1B}b\nc\td\u{9B}".shownKeepingLines, "a\\x1Bb\nc\td\\u009B")
        XCTAssertEqual("plain é ☺".shown, "plain é ☺")
    }
}
