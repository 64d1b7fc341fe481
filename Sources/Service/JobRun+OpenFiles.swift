import System
import Foundation
import Core

extension JobRun {
    /// Descriptors a run opens beside those open when it starts, whatever its workers: the catalogue's lock,
    /// database, `-wal`, `-shm` and `-journal`, the signalfd, Dispatch's epoll, eventfd, timerfd and wake-up pipe,
    /// libvips' module loading (measured on Debian 12: 10 at once at 1 to 8 workers), and the catalogue's folder
    /// held open for the renditions' stats (`OpenFolder`; the scan's folders are held before the run opens these).
    static let runDescriptors = 13
    /// Descriptors one worker may hold at once: the original (or rendition) being read, a temporary file being
    /// written, the folder synced after its rename.
    static let descriptorsPerWorker = 3
    /// Left free so that a file a stage opens while another thread holds one is never the one that fails.
    static let spareDescriptors = 8

    /// The descriptors a run with `workers` needs, `openNow` being those open already.
    static func descriptorsNeeded(workers: Int, openNow: Int) -> Int {
        openNow + runDescriptors + descriptorsPerWorker * workers + spareDescriptors
    }

    /// Makes sure the open-file limit (`ulimit -n`) leaves the run its descriptors before anything is opened: a
    /// soft limit below the need is raised to the hard limit when that is enough; else the run does not start.
    /// Running out mid-run would make Dispatch stop the process (SIGILL) with its run left `running`.
    /// - Throws: `OpenFileLimitError` (exit 3) naming the limit and the need.
    func requireOpenFiles() throws {
        let workers = max(1, options.workers ?? job.workers ?? ProcessInfo.processInfo.activeProcessorCount)
        let openNow = OpenFileLimit.openNow ?? 3
        let need = Self.descriptorsNeeded(workers: workers, openNow: openNow)
        switch try OpenFileLimit.ensure(need) {
        case .enough:
            break
        case .raised(let from, let to):
            if verbose {
                Console.err("album: raised the open-file limit (ulimit -n) from \(from) to \(to.map(String.init) ?? "unlimited"), "
                    + "its hard limit: \(workers) worker\(workers == 1 ? "" : "s") need \(need)")
            }
        case .tooLow(let soft, let hard):
            throw OpenFileLimitError(soft: soft, hard: hard, need: need, workers: workers, openNow: openNow)
        }
    }
}

/// The open-file limit is too low for the run even when raised to its hard limit: exit 3 with the message.
struct OpenFileLimitError: Error, Sendable, CustomStringConvertible {
    package var soft: Int
    package var hard: Int
    package var need: Int
    package var workers: Int
    package var openNow: Int

    package var description: String {
        let one = JobRun.descriptorsNeeded(workers: 1, openNow: openNow)
        let fewer = workers > 1 && one <= hard ? " or ask for fewer workers (--workers 1 needs \(one))," : ""
        return "too few file descriptors: the open-file limit (ulimit -n) is \(soft)\(hard == soft ? "" : ", its hard limit \(hard)"), "
            + "and a run with \(workers) worker\(workers == 1 ? "" : "s") needs \(need) (\(openNow) open at start, "
            + "\(JobRun.runDescriptors) for the catalogue, signals and threads, \(JobRun.descriptorsPerWorker) per worker, "
            + "\(JobRun.spareDescriptors) spare). Raise the limit to \(need) or more (`ulimit -n \(need)` in the shell that "
            + "starts album, as root for more than the hard limit; `LimitNOFILE=` in a systemd unit),\(fewer) and run again; "
            + "nothing was started"
    }
}
