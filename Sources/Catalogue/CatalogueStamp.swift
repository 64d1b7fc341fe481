import Foundation
import System

/// The database file's identity as the last writer left it, so that the next writer may skip the pre-write check
/// when nothing has touched the file since.
///
/// A writer that closes cleanly (no damage met, its last checkpoint done, so no `-wal` file is left) records the
/// file's device, inode, size, mtime and ctime in `catalogue.checked`. The next writer, under the lock, skips
/// `PRAGMA quick_check` only when there is still no `-wal` and the file's stat is the same: any write to the file,
/// album's or anyone's (`dd`, a copy, a restore), changes its ctime, which no program can set back. Damage without a
/// write (the disk's own) is `album verify`'s to find.
///
/// ```
/// if CatalogueStamp(file: db) == CatalogueStamp.recorded(in: folder) { /* unchanged since album's last close */ }
/// ```
struct CatalogueStamp: Equatable {
    /// The file's name inside the catalogue folder.
    static let fileName = "catalogue.checked"

    package var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64

    /// The stat of `file`, or nil when it cannot be read.
    package init?(file: String) {
        guard let info = FileStatus.of(file) else { return nil }
        device = info.device
        inode = UInt64(info.inode)
        size = Int64(info.size)
        modified = Int64(info.modifiedNanoseconds)
        changed = Int64(info.changedNanoseconds)
    }

    private init?(text: String) {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 5, let device = UInt64(fields[0]), let inode = UInt64(fields[1]),
              let size = Int64(fields[2]), let modified = Int64(fields[3]), let changed = Int64(fields[4]) else { return nil }
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    /// The stamp the last clean writer recorded in `folder`, or nil when there is none (or it cannot be read).
    package static func recorded(in folder: String) -> CatalogueStamp? {
        guard let text = try? String(contentsOfFile: folder + "/" + fileName, encoding: .utf8) else { return nil }
        return CatalogueStamp(text: text)
    }

    /// Records this stamp in `folder`. A failure only costs the next writer a full check, so it is not an error.
    package func record(in folder: String) {
        try? AtomicFile.write(Array("\(device) \(inode) \(size) \(modified) \(changed)\n".utf8), to: folder + "/" + CatalogueStamp.fileName)
    }

    /// Forgets the stamp in `folder`, so that the next writer checks in full.
    package static func forget(in folder: String) {
        try? FileSystem.remove(folder + "/" + fileName)
    }
}
