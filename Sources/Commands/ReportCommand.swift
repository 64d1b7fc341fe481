import Foundation
import System
import Vips
import Core
import Catalogue
import Report

/// `album report`: one self-contained HTML page about a run, or a contact-sheet JPEG of its thumbnails.
struct ReportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "report",
        abstract: "Write an HTML report of a run (or a contact sheet of its thumbnails).",
        discussion: """
            The page is one file: images are inlined as small data URIs and nothing is fetched, so it can be archived
            as a CI artifact or mailed. It shows the job, the run's status and timing, per-stage counts, the photos
            the run changed or failed (before and after wherever a filter was applied; the first 500), every failure
            with its reason, and the slowest photos. A job's 'report: FILE.html' writes it after every run. It needs
            --out, --contact-sheet or both.
            """)

    static let runOption: Option<Int64?> = .value("--run", "ID|last", help: "which run", default: nil, defaultHelp: "the last run of a job, not a caption or relocate") { run in
        guard run != "last" else { return nil }
        guard let id = Int64(run), id > 0 else { throw UsageError("--run takes a run id or 'last', got '\(run)'") }
        return id
    }

    @Option(ReportCommand.runOption) var runID: Int64?
    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(.text("--out", "FILE.html", aliases: ["-o"], help: "write the HTML page here")) var out: String?
    @Option(.text("--contact-sheet", "FILE.jpg", help: "write a JPEG grid of the run's thumbnails here")) var contactSheet: String?

    func validate() throws {
        guard out != nil || contactSheet != nil else { throw UsageError("report needs --out FILE.html or --contact-sheet FILE.jpg") }
    }

    func run() throws -> ExitCode {
        try Vips.start()
        let catalogue = try CatalogueReader(folder: self.catalogue)
        defer { catalogue.close() }
        let report = try RunReport.load(from: catalogue, run: runID)
        if let out {
            try ReportPage.write(report, catalogueFolder: catalogue.folder, to: Paths.absolute(out))
            Console.err("album: wrote the report of run \(report.run.id) to \(out)")
        }
        if let contactSheet {
            let bytes = try ContactSheet.render(report, catalogueFolder: catalogue.folder)
            try AtomicFile.write(bytes, to: Paths.absolute(contactSheet))
            Console.err("album: wrote the contact sheet of run \(report.run.id) to \(contactSheet)")
        }
        return .ok
    }
}
