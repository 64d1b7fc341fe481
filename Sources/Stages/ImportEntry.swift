import Foundation
import System
import Catalogue

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
        var status: FileStatus
        do {
            status = try FileStatus(path, followingLinks: false)
        } catch {
            return .failed("cannot read it: " + error.reason + (error.notFound ? " (deleted or moved?)" : ""))
        }
        if status.kind == .symbolicLink {
            guard followSymlinks else {
                return .skipped("a symbolic link: not followed (set follow-symlinks: true to import what links point to)")
            }
            do {
                status = try FileStatus(path, followingLinks: true)
            } catch {
                return .failed(error.symbolicLinkLoop ? "a symbolic link loop" : "a dangling symbolic link: what it points to does not exist")
            }
        }
        guard status.kind == .regular else {
            return .skipped("not a regular file (\(status.kind.phrase)): never opened")
        }
        return .file(FileIdentity(status))
    }
}
