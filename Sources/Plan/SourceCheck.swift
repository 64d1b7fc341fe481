import System
import Core
import Catalogue
import Stages
import JobFile

/// The checks on import's roots before a run or a plan does anything, the same for `run`, `import` and `plan`:
/// a root that does not exist stops it before any catalogue folder is made (exit 2), and a folder root that gave
/// no photos where the catalogue knows some under it stops it too (exit 1), unless `--allow-empty` says so.
public enum SourceCheck {
    /// Throws when a root of the job's import does not exist (a file is a valid root; so is a link, which the
    /// import then explains). Call it before `Catalogue(folder:create:)`. Paths in `listed` came from a list
    /// (`album import -`): a missing one is the failed step of its file instead.
    public static func requireRoots(of job: Job, except listed: Set<String> = []) throws(SourceError) {
        let missing = (job.importStage?.from ?? []).filter {
            !listed.contains($0) && (try? FileStatus($0, followingLinks: false)) == nil
        }
        guard !missing.isEmpty else { return }
        let named = missing.map { "the import root \($0.shown) does not exist" }.joined(separator: "; ")
        throw SourceError(named + "; nothing was imported and no catalogue was created or changed", exitCode: .usage)
    }

    /// Throws when a folder root of `scan` gave nothing to import while the catalogue's current photos include some
    /// from under it, as `count` counts them for a folder's path ending in `/` (`CatalogueSnapshot.currentCount(under:)`,
    /// a walk of the catalogue that keeps nothing): "no photos found in ROOT, where the catalogue knows N; is it mounted?".
    public static func requireFound(_ scan: ImportScan, of job: Job, counting count: (String) throws -> Int) throws {
        var messages: [String] = []
        for root in job.importStage?.from ?? [] where scan.foundPerRoot[root] == 0 {
            guard FileStatus.of(root)?.isDirectory == true else { continue }
            let prefix = root.hasSuffix("/") ? root : root + "/"
            let count = try count(prefix)
            if count > 0 { messages.append("no photos found in \(root.shown), where the catalogue knows \(count); is it mounted?") }
        }
        guard !messages.isEmpty else { return }
        throw SourceError(messages.joined(separator: "\n") + " Nothing was done; --allow-empty runs anyway.",
                          exitCode: .failures)
    }

    /// Whether `scan` has a root that gave nothing, so that `requireFound` needs the catalogue's photos.
    public static func anyRootEmpty(_ scan: ImportScan) -> Bool { scan.foundPerRoot.values.contains(0) }
}
