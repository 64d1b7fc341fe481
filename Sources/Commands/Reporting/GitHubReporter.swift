import Foundation
import System
import Core
import JobFile
import Run
import Catalogue

/// GitHub Actions workflow commands on stdout: one `::error` annotation per failed step; and, when the runner names
/// a job summary file (`GITHUB_STEP_SUMMARY`), the run's summary appended to it as Markdown.
///
/// Annotation paths are relative to `GITHUB_WORKSPACE` when the file lies under it, since GitHub attaches an
/// annotation to a file only by its path in the repository; absolute otherwise.
///
/// ```
/// ::error file=photos/bad.jpg,title=album import failed::not an image: it is an HTML page
/// ```
struct GitHubReporter: RunObserver {
    let job: Job
    /// `GITHUB_WORKSPACE`, made absolute and folded; nil when unset or empty.
    let workspace: String?
    /// `GITHUB_STEP_SUMMARY`; nil when unset or empty.
    let summaryFile: String?

    init(job: Job, environment: [String: String]) {
        self.job = job
        workspace = environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : Paths.absolute($0) }
        summaryFile = environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func runStarted(run: Int64, job: String, photos: Int) {}
    func progress(_ progress: RunProgress) {}
    func stopping(_ reason: StopReason) { Console.out("::warning title=album::\(GitHubReporter.data(reason.explanation))") }

    func step(_ step: StepRecord) {
        let file = GitHubReporter.property(shown(step.path))
        // A step that went on with a warning (a sidecar that could not be read) is a warning annotation.
        if step.status != .failed, let error = step.error, let range = error.range(of: "warning: ") {
            let title = GitHubReporter.property("album \(step.stage.rawValue) warning")
            Console.out("::warning file=\(file),title=\(title)::\(GitHubReporter.data(String(error[range.upperBound...])))")
            return
        }
        guard step.status == .failed else { return }
        let title = GitHubReporter.property("album \(step.stage.rawValue) failed")
        Console.out("::error file=\(file),title=\(title)::\(GitHubReporter.data(step.error ?? "failed"))")
    }

    func runFinished(_ summary: RunSummary) {
        guard let summaryFile else { return }
        let text = StepSummary.markdown(summary, job: job, path: shown)
        do {
            try FileSystem.append(Array(text.utf8), to: summaryFile)
        } catch {
            Console.err("album: warning: the job summary was not written (GITHUB_STEP_SUMMARY): \(error)")
        }
    }

    /// `path` as GitHub names it: relative to the workspace when under it (`photos/a.jpg`), else as it is.
    func shown(_ path: String) -> String {
        guard let workspace else { return path }
        let prefix = workspace.hasSuffix("/") ? workspace : workspace + "/"
        return path.hasPrefix(prefix) && path.count > prefix.count ? String(path.dropFirst(prefix.count)) : path
    }

    /// Escapes a message as GitHub's runner expects (`%`, CR, LF).
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a property value (also `:` and `,`).
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
