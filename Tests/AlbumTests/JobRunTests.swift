import Foundation
import Synchronization
import XCTest
@testable import Core
@testable import Catalogue
@testable import JobFile
@testable import Run
@testable import Service

/// `JobRun`, the service behind `album run` and `album import`, run in-process: what its observer hears, what the
/// catalogue records and the exit status it returns must tell the same story. The end-to-end tests see the status and
/// the printed events; these see the events as values, beside the catalogue, and the cases where the status is not
/// the summary's.
final class JobRunTests: XCTestCase {
    /// Keeps every event a run sends, in order.
    final class Recorder: RunObserver {
        struct Events {
            var started: [(run: Int64, job: String, photos: Int)] = []
            var steps: [StepRecord] = []
            var stops: [StopReason] = []
            var finished: [RunSummary] = []
        }

        let events = Mutex(Events())

        func runStarted(run: Int64, job: String, photos: Int) { events.withLock { $0.started.append((run, job, photos)) } }
        func step(_ step: StepRecord) { events.withLock { $0.steps.append(step) } }
        func progress(_ progress: RunProgress) {}
        func stopping(_ reason: StopReason) { events.withLock { $0.stops.append(reason) } }
        func runFinished(_ summary: RunSummary) { events.withLock { $0.finished.append(summary) } }
    }

    /// Two photos and a file that is not one, and a job that imports and thumbnails them.
    func makeJob(in folder: String) throws -> Job {
        for i in 0..<2 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 80 + i, height: 60, variant: i) }
        try TestSupport.write("not an image", to: "photos/broken.jpg", in: folder)
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        return try JobLoader.load(path: folder + "/job.yml")
    }

    func run(_ job: Job, _ recorder: Recorder) throws -> ExitCode {
        var options = RunOptions()
        options.workers = 2
        return try JobRun(job: job, options: options, observer: recorder, mainStreams: []).run()
    }

    func testTheEventsTheCatalogueAndTheExitStatusAgree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let job = try makeJob(in: folder)

        let first = Recorder()
        XCTAssertEqual(try run(job, first), .failures, "one file is not an image")
        let catalogue = try CatalogueReader(folder: job.catalogue)
        defer { catalogue.close() }
        let recorded = try XCTUnwrap(catalogue.runs().first)
        try first.events.withLock { events in
            XCTAssertEqual(events.started.map(\.run), [recorded.id], "one run, the one the catalogue holds")
            XCTAssertEqual(events.started.first?.job, "job")
            let summary = try XCTUnwrap(events.finished.first)
            XCTAssertEqual(events.finished.count, 1)
            XCTAssertEqual(summary.run, recorded.id)
            XCTAssertEqual(summary.exitCode, .failures)
            XCTAssertEqual(summary.status, recorded.status)
            XCTAssertEqual(summary.counts, try catalogue.stepCounts(run: recorded.id), "the summary's counts are the rows'")
            XCTAssertEqual(summary.counts[.import], [.done: 2, .failed: 1])
            XCTAssertEqual(summary.counts[.thumbnail], [.done: 2])
            XCTAssertEqual(summary.failures.map(\.path), [folder + "/photos/broken.jpg"])
            XCTAssertEqual(events.steps.filter { $0.status == .failed }.map(\.path), [folder + "/photos/broken.jpg"])
            XCTAssertTrue(events.stops.isEmpty, "nothing stopped the run")
        }

        // Run again: the two photos are up to date, and the broken file fails again.
        let second = Recorder()
        XCTAssertEqual(try run(job, second), .failures)
        try second.events.withLock { events in
            let summary = try XCTUnwrap(events.finished.first)
            XCTAssertEqual(summary.counts[.import], [.skipped: 2, .failed: 1])
            XCTAssertEqual(summary.counts[.thumbnail], [.skipped: 2])
            XCTAssertNotEqual(summary.run, recorded.id, "a run of its own")
        }
    }

    /// The job's report page is written after the run; when it cannot be, the run stays recorded as it went (ok) but
    /// the status says the job did not do all it was asked (1).
    func testAReportThatCannotBeWrittenMakesAnOkRunExitOne() throws {
        let folder = try TestSupport.temporaryFolder(self)
        var job = try makeJob(in: folder)
        try FileManager.default.removeItem(atPath: folder + "/photos/broken.jpg")
        try TestSupport.write("a file, not a folder", to: "blocked", in: folder)
        job.report = folder + "/blocked/report.html"

        let recorder = Recorder()
        XCTAssertEqual(try run(job, recorder), .failures)
        try recorder.events.withLock { events in
            let summary = try XCTUnwrap(events.finished.first)
            XCTAssertEqual(summary.exitCode, .ok, "every photo was done")
            XCTAssertEqual(summary.status, "ok")
        }
        do {
            let catalogue = try CatalogueReader(folder: job.catalogue)
            defer { catalogue.close() }
            XCTAssertEqual(try catalogue.runs().first?.status, "ok", "the run is recorded as it went")
        }

        // With a place to write it, the same job writes its page and exits 0.
        job.report = folder + "/out/report.html"
        XCTAssertEqual(try run(job, Recorder()), .ok)
        let page = try String(contentsOfFile: folder + "/out/report.html", encoding: .utf8)
        XCTAssertTrue(page.contains("<html"), "an HTML page")
    }
}
