import Foundation

/// What import makes of a scanned entry before it reads a byte of it: a regular file to compare with the
/// catalogue, an entry it never opens, or one it cannot read.
public enum ImportEntry: Sendable, Equatable {
    /// A regular file (what a link points to, when links are followed), with its identity.
    case file(FileIdentity)
    /// Never opened, for this reason (a link not followed; a folder, FIFO, socket or device).
    case skipped(String)
    /// Cannot be read, for this reason.
    case failed(String)
}

extension ImportStage {
    /// What import makes of `path` before reading it, with the reasons its step records (`importFile`).
    public func entry(atPath path: String) -> ImportEntry {
        var status: PathStatus
        switch PathStatus.of(path, followingLinks: false) {
        case .failure(let failure):
            return .failed("cannot read it: " + failure.reason + (failure.code == ENOENT ? " (deleted or moved?)" : ""))
        case .success(let own): status = own
        }
        if status.kind == .symbolicLink {
            guard followSymlinks else {
                return .skipped("a symbolic link: not followed (set follow-symlinks: true to import what links point to)")
            }
            switch PathStatus.of(path, followingLinks: true) {
            case .failure(let failure):
                return .failed(failure.code == ELOOP ? "a symbolic link loop" : "a dangling symbolic link: what it points to does not exist")
            case .success(let target): status = target
            }
        }
        guard status.kind == .regular else {
            return .skipped("not a regular file (\(status.kind.description)): never opened")
        }
        return .file(status.identity)
    }
}
