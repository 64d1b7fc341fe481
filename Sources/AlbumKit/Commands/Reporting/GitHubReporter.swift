/// GitHub Actions workflow commands on stdout: one `::error` annotation per failed step.
struct GitHubReporter: RunObserver {
    func runStarted(run: Int64, job: String, photos: Int) {}
    func progress(_ progress: RunProgress) {}
    func stopping(_ reason: StopReason) { Console.out("::warning title=album::\(GitHubReporter.data(reason.explanation))") }
    func runFinished(_ summary: RunSummary) {}

    func step(_ step: StepRecord) {
        guard step.status == .failed else { return }
        let file = GitHubReporter.property(step.path)
        let title = GitHubReporter.property("album \(step.stage.rawValue) failed")
        Console.out("::error file=\(file),title=\(title)::\(GitHubReporter.data(step.error ?? "failed"))")
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
