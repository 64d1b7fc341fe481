import System
extension ReportPage {
    /// Renders `report`'s page and writes it to `path` atomically: `album report --out` and a job's `report:`.
    package static func write(_ report: RunReport, catalogueFolder: String, to path: String) throws {
        let html = ReportPage(report: report, catalogueFolder: catalogueFolder, software: .current).render()
        try AtomicFile.write(Array(html.utf8), to: path)
    }
}
