import Foundation
import XCTest
@testable import Core
@testable import JobFile
@testable import Run
@testable import Commands
@testable import Stages

/// What a CI log gets from a run, through the built binary: GitHub annotations relative to `GITHUB_WORKSPACE`, the
/// job summary in `GITHUB_STEP_SUMMARY`, and progress with no control sequence on a stream that is not a terminal.
final class CILogTests: XCTestCase {
    /// The damaged photo's name: `,`, `%` and `:` must be escaped in an annotation's `file=` property.
    let damagedName = "bad, 50%: really.jpg"

    /// A workspace (`folder/repo`) holding a job, two photos and a JPEG cut in half, whose pixels cannot be decoded.
    func makeWorkspace(in folder: String) throws -> String {
        let workspace = folder + "/repo"
        for i in 0..<2 { try Fixture.jpeg(at: "\(workspace)/photos/p\(i).jpg", width: 120, height: 80, variant: i) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Fixture.jpeg(at: folder + "/whole.jpg", width: 320, height: 200)))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: "\(workspace)/photos/\(damagedName)"))
        try TestSupport.write("""
            version: 1
            name: ci
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {}
            """, to: "job.yml", in: workspace)
        return workspace
    }

    /// The `::error` lines of a run's stdout.
    func annotations(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("::error ") }
    }

    // MARK: GITHUB_WORKSPACE

    func testGitHubAnnotationsNameFilesRelativeToTheWorkspaceAndAbsoluteOutsideIt() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let workspace = try makeWorkspace(in: folder)
        // Given with a trailing slash and a `.`, as a runner or a person might: folded before it is compared.
        let inside = try TestSupport.album(["run", "job.yml", "--log-format", "github"], in: workspace,
                                           environment: ["GITHUB_WORKSPACE": workspace + "/./", "GITHUB_STEP_SUMMARY": ""])
        XCTAssertEqual(inside.status, 1, inside.stderr)
        let relative = annotations(inside.stdout)
        XCTAssertEqual(relative.count, 1, inside.stdout)
        XCTAssert(relative.first?.hasPrefix("::error file=photos/bad%2C 50%25%3A really.jpg,title=album ") == true,
                  "relative to the workspace, escaped:\n\(inside.stdout)")

        // A folder whose name merely begins like the path's (`…/re` for `…/repo/…`) is not the path's workspace.
        let absolute = "::error file=" + GitHubReporter.property("\(workspace)/photos/\(damagedName)") + ",title=album "
        for (index, (name, value)) in [("a sibling prefix", folder + "/re"), ("another folder", folder + "/elsewhere"), ("empty", "")].enumerated() {
            // A catalogue of its own each time, so that the damaged photo is met afresh.
            let outside = try TestSupport.album(["run", "job.yml", "--log-format", "github", "--catalogue", "album-\(index)"],
                                                in: workspace, environment: ["GITHUB_WORKSPACE": value, "GITHUB_STEP_SUMMARY": ""])
            XCTAssertEqual(outside.status, 1, outside.stderr)
            XCTAssertEqual(annotations(outside.stdout).count, 1, outside.stdout)
            XCTAssert(annotations(outside.stdout).first?.hasPrefix(absolute) == true, "\(name): absolute, as before:\n\(outside.stdout)")
        }
    }

    // MARK: GITHUB_STEP_SUMMARY

    func testGitHubAppendsAJobSummaryToTheRunnersFileAndOtherFormatsDoNot() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let workspace = try makeWorkspace(in: folder)
        let summaryFile = try TestSupport.write("earlier step\n", to: "step-summary.md", in: folder)
        let environment = ["GITHUB_WORKSPACE": workspace, "GITHUB_STEP_SUMMARY": summaryFile]
        let result = try TestSupport.album(["run", "job.yml", "--log-format", "github"], in: workspace, environment: environment)
        XCTAssertEqual(result.status, 1, result.stderr)
        let text = try String(contentsOfFile: summaryFile, encoding: .utf8)
        XCTAssert(text.hasPrefix("earlier step\n### album: run 1 of job 'ci': failed (catalogue run 1)\n"), "appended, after what was there:\n\(text)")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssert(lines.contains("| stage | done | skipped | failed |"), text)
        let rows = Dictionary(uniqueKeysWithValues: lines.compactMap { line -> (String, [Int])? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, let stage = StageRegistry.stepNames.first(where: { $0.rawValue == cells[0] }) else { return nil }
            let numbers = cells.dropFirst().compactMap { Int($0) }
            return numbers.count == 3 ? (stage.rawValue, numbers) : nil
        })
        XCTAssertEqual(rows.values.reduce(0) { $0 + $1[2] }, 1, "one failure in the counts:\n\(text)")
        XCTAssertEqual(rows["import"].map { $0[0] + $0[2] }, 3, "three files met at import:\n\(text)")
        let failure = try XCTUnwrap(lines.first { $0.contains(damagedName) }, text)
        XCTAssert(failure.contains("| photos/\(damagedName) | "), "the failure, relative to the workspace:\n\(failure)")
        XCTAssert(failure.contains("damaged image data"), "with its reason:\n\(failure)")

        // text and json runs leave the file alone.
        let before = try String(contentsOfFile: summaryFile, encoding: .utf8)
        for format in ["text", "json"] {
            let other = try TestSupport.album(["run", "job.yml", "--retry-damaged", "--log-format", format], in: workspace, environment: environment)
            XCTAssertEqual(other.status, 1, other.stderr)
        }
        XCTAssertEqual(try String(contentsOfFile: summaryFile, encoding: .utf8), before)

        // A summary file album cannot write costs a warning, never the run's status.
        let unwritable = try TestSupport.album(["run", "job.yml", "--retry-damaged", "--log-format", "github"], in: workspace,
                                               environment: ["GITHUB_STEP_SUMMARY": folder + "/no/such/folder/summary.md"])
        XCTAssertEqual(unwritable.status, 1, unwritable.stderr)
        XCTAssert(unwritable.stderr.contains("album: warning: the job summary was not written"), unwritable.stderr)
    }

    func testTheJobSummaryEscapesMarkdownAndListsAtMostFiftyFailures() {
        var summary = RunSummary(run: 4)
        summary.status = "failed"
        summary.counts = [.import: [.done: 0, .skipped: 0, .failed: 60]]
        summary.failures = (0..<60).map { .init(path: "/ws/photos/a|b*\($0)_.jpg", stage: .import, reason: "not an image:\nit is <html>") }
        let job = Job(name: "ci", catalogue: "/ws/album", path: nil, hash: nil)
        let text = StepSummary.markdown(summary, job: job) { $0.hasPrefix("/ws/") ? String($0.dropFirst(4)) : $0 }
        let lines = text.split(separator: "\n").map(String.init)
        let failures = lines.filter { $0.hasPrefix("| import | photos") }
        XCTAssertEqual(failures.count, StepSummary.listedFailures)
        XCTAssertEqual(failures.first, #"| import | photos/a\|b\*0\_.jpg | not an image: it is \<html\> |"#, "one row per failure, escaped")
        XCTAssert(lines.contains("… and 10 more: `album ls --failed last-run` lists them all."), text)
        XCTAssert(lines.contains("| import | 0 | 0 | 60 |"), text)
        XCTAssert(text.hasSuffix("catalogue album\n\n"), text)
    }

    // MARK: Progress

    func testProgressOptionTakesAnOptionalForm() throws {
        let configuration = RunCommand.self
        XCTAssertNil(try Arguments(parsing: ["job.yml"], for: configuration).value(of: RunCommand.progress))
        let alone = try Arguments(parsing: ["--progress", "job.yml"], for: configuration)
        XCTAssertEqual(try alone.value(of: RunCommand.progress), .live)
        XCTAssertEqual(alone.positionals, ["job.yml"], "the next argument is never the value")
        XCTAssertEqual(try Arguments(parsing: ["job.yml", "--progress=plain"], for: configuration).value(of: RunCommand.progress), .plain)
        XCTAssertThrowsError(try Arguments(parsing: ["--progress=dots"], for: configuration).value(of: RunCommand.progress)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--progress takes live or plain, got 'dots'")
        }
        XCTAssert(configuration.usage.contains("[--progress[=live|plain]]"), configuration.usage)
        XCTAssert(configuration.help.contains("  --progress[=live|plain] "), configuration.help)
    }

    func testProgressFormFollowsTheStream() {
        func form(_ asked: ProgressForm?, terminal: Bool, draws: Bool) -> ProgressForm? {
            RunOutput(progress: asked).progressForm(terminal: terminal, draws: draws)
        }
        XCTAssertEqual(form(nil, terminal: true, draws: true), .live)
        XCTAssertEqual(form(nil, terminal: true, draws: false), .plain, "TERM=dumb")
        XCTAssertNil(form(nil, terminal: false, draws: false), "no progress off a terminal unless asked")
        XCTAssertEqual(form(.live, terminal: false, draws: false), .plain)
        XCTAssertEqual(form(.plain, terminal: true, draws: true), .plain)
    }

    func testControlCharactersInNamesAreShownNotSent() {
        XCTAssertEqual(TextReporter.visible("a\u{1B}[2Kb\rc\td\ne\u{9B}f\u{7F}"), #"a\x1B[2Kb\rc"# + "\td\ne" + #"\u009Bf\u007F"#)
    }

    /// `count` photos of noise, made by libvips' own command line (costly to decode and encode, so that a run at one
    /// worker lasts past the progress timer's first tick), one broken file, and a job that thumbnails them.
    func makeSlowJob(in folder: String, count: Int) throws {
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        for i in 0..<count {
            XCTAssertEqual(try Tool.run(["vips", "gaussnoise", "\(folder)/photos/n\(i).jpg[Q=90]", "1600", "1066"]).status, 0)
        }
        try TestSupport.write("<html>", to: "photos/a-broken.jpg", in: folder)
        try TestSupport.write("""
            version: 1
            name: slow
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 400x400}
              - export: {from: image, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
    }

    /// The plain progress lines of `stderr`, as (done, total, failed).
    func plainLines(_ stderr: String) -> [(Int, Int, Int)] {
        let pattern = try! NSRegularExpression(pattern: #"^album: progress: ([0-9]+)/([0-9]+) photos, ([0-9]+) failed, [0-9]+\.[0-9]/s, [0-9]+\.[0-9] s$"#,
                                               options: .anchorsMatchLines)
        return pattern.matches(in: stderr, range: NSRange(stderr.startIndex..., in: stderr)).map { match in
            let number = { (i: Int) in Int(stderr[Range(match.range(at: i), in: stderr)!])! }
            return (number(1), number(2), number(3))
        }
    }

    func assertNoControlBytes(_ stderr: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(stderr.unicodeScalars.contains { $0 == "\r" || $0 == "\u{1B}" }, "\(what): no CR, no ESC:\n\(stderr.debugDescription)",
                       file: file, line: line)
    }

    func testProgressOffATerminalIsPlainLinesWithoutControlSequences() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeSlowJob(in: folder, count: 24)
        let broken = "album: import failed: \(folder)/photos/a-broken.jpg: not an image"
        // TERM=dumb and no NO_COLOR: neither may bring control sequences to a pipe.
        let environment = ["TERM": "dumb", "NO_COLOR": ""]

        // Text: the failure and the summary, and no control byte, with `--progress` and with `--progress=plain`.
        for progress in ["--progress", "--progress=plain"] {
            let text = try TestSupport.album(["run", "job.yml", "--workers", "1", "--force", progress], in: folder, environment: environment)
            XCTAssertEqual(text.status, 1, text.stderr)
            assertNoControlBytes(text.stderr, progress)
            XCTAssert(text.stderr.contains(broken), text.stderr)
            XCTAssert(text.stderr.contains("album: run "), "the summary:\n\(text.stderr)")
            XCTAssert(plainLines(text.stderr).allSatisfy { $0.0 <= $0.1 && $0.1 == 25 }, text.stderr)
        }

        // JSON on stdout tells whether the progress timer ticked (its event is written by the same tick): when it did,
        // stderr has a plain line for it.
        for progress in ["--progress", "--progress=plain", "--progress=live"] {
            let json = try TestSupport.album(["run", "job.yml", "--workers", "1", "--force", "--log-format", "json", progress],
                                             in: folder, environment: environment)
            XCTAssertEqual(json.status, 1, json.stderr)
            assertNoControlBytes(json.stderr, progress)
            let ticks = json.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"event":"progress""#) }.count
            XCTAssertGreaterThan(ticks, 0, "the run lasted past a tick")
            let lines = plainLines(json.stderr)
            XCTAssertGreaterThan(lines.count, 0, "\(progress): a plain line at the first tick:\n\(json.stderr)")
            XCTAssertLessThanOrEqual(lines.count, ticks)
            XCTAssertEqual(lines.map(\.0), lines.map(\.0).sorted(), "done only grows")
        }

        // Without --progress, nothing of it off a terminal.
        let quiet = try TestSupport.album(["run", "job.yml", "--workers", "1", "--force"], in: folder, environment: environment)
        assertNoControlBytes(quiet.stderr, "no --progress")
        XCTAssert(plainLines(quiet.stderr).isEmpty, quiet.stderr)
    }
}
