import System
import Core
import JobFile

/// The check on the export stages' folders before a run does anything: each export root (`PathTemplate.root`, the
/// folder an export stage writes under) must be a folder this user can write, or one album can create. One that
/// cannot stops the run before any photo with one message (exit 3), instead of one failed export per photo.
public enum ExportRootCheck {
    /// Throws a `SourceError` (exit 3) naming each export root that cannot be written, why, and what to do: the
    /// root itself when it exists, else its nearest existing folder, which album would create it in.
    public static func requireWritable(_ job: Job) throws(SourceError) {
        var problems: [String] = []
        for root in Set(job.derivedFiles.exportRoots).sorted() {
            if let problem = problem(with: root) { problems.append(problem) }
        }
        guard !problems.isEmpty else { return }
        throw SourceError(problems.joined(separator: "; ") + "; nothing was run. Make it writable for this user, or change the export stage's `to:`",
                          exitCode: .environment)
    }

    /// Why album could not write under `root`, or nil when it can.
    package static func problem(with root: String) -> String? {
        var existing = root
        while FileStatus.of(existing) == nil {
            let parent = Directory.parent(of: existing)
            guard parent != existing else { return nil }  // nothing exists on the way: creating it will say why
            existing = parent
        }
        guard FileStatus.of(existing)?.isDirectory == true else {
            return "the export folder \(root) cannot be made: \(existing) is not a folder"
        }
        guard let error = FileSystem.whyNotWritable(existing) else { return nil }
        return existing == root ? "the export folder \(root) is not writable (\(error.reason))"
            : "the export folder \(root) cannot be created: \(existing) is not writable (\(error.reason))"
    }
}
