import System
import Core

extension PhotoRecord {
    /// The state that keeps this photo out of a run's stages, or nil when the run takes it through them: the one
    /// rule `Scheduler` and `Planner` share (docs/catalogue.md, "A photo's life: states").
    ///
    /// - `missing`: its file is gone from its path. Only stat-ed for a photo import did not just find there
    ///   (`foundByImport` false: the run's phase 2), so a rerun where nothing changed stats each photo at most once
    ///   and hashes nothing.
    /// - `damaged`: a run found its pixels could not be decoded, and `--retry-damaged` was not given. New bytes at
    ///   its path are a new photo, without damage, so an edited file is taken again.
    ///
    /// `superseded` photos never get this far (`PhotoRecord.current`, `settle`); a `changed` file is the new
    /// version import records. A photo not under any import root of the job is still checked for `missing`.
    public func heldBack(foundByImport: Bool, retryDamaged: Bool) -> PhotoState? {
        if !foundByImport, PhotoRecord.isGone(path) { return .missing }
        if damage != nil, !retryDamaged { return .damaged }
        return nil
    }

    /// Whether nothing a run could read is at `path` any more: no entry, or one that is not a regular file (after
    /// links). A file that cannot be stat-ed for another reason (a permission) is not gone: its run fails and
    /// says why.
    package static func isGone(_ path: String) -> Bool {
        do {
            return !(try FileStatus(path, followingLinks: true)).isRegular
        } catch {
            return error.notFound
        }
    }
}
