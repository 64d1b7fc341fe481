import Foundation
import System
import Core
import Catalogue

/// Which photos a deep `album verify` checks, and in what order (docs/commands.md, "verify"): every photo in id
/// order, or in the order of SHA-256("SEED:ID") when a seed is given (`--sample N` draws one when `--seed` is not
/// given); only those added, or with a rendition written by a run started, on or after `since`'s day; after the
/// photo `after` names in that order (`--resume`); at most `sample` of them.
///
/// The walk is recorded in the catalogue folder (`VerifyProgress`) as it goes, so `--resume` continues it.
public struct VerifyWalk: Sendable, Equatable {
    /// The seed of the order: nil for id order.
    public var seed: UInt64?
    /// Only photos added, or with a rendition written by a run started, on or after this day (local time).
    public var since: DateRange?
    /// The key (`key(of:)`) of the last photo an earlier check of this walk checked: the walk continues after it.
    public var after: String?
    /// At most this many photos.
    public var sample: Int?

    public init(seed: UInt64? = nil, since: DateRange? = nil, after: String? = nil, sample: Int? = nil) {
        self.seed = seed
        self.since = since
        self.after = after
        self.sample = sample
    }

    /// Whether the walk is every photo of the catalogue (then the renditions of no photo are checked too, as the
    /// rows that point nowhere are).
    public var isWhole: Bool { since == nil && after == nil && sample == nil }

    /// The photo's place in the walk's order: its id, or the SHA-256 of "SEED:ID" in hex.
    public func key(of id: String) -> String {
        guard let seed else { return id }
        return (try? SHA256.hex(Array("\(seed):\(id)".utf8))) ?? id
    }

    /// "order id", or "order seed S", and the since line, as the progress file and the output say them.
    public var order: String { seed.map { "seed \($0)" } ?? "id" }
}

/// The progress of a deep check, in the catalogue folder as `verify.progress`: a few lines of text, written
/// atomically (`AtomicFile`) every few seconds while the check runs and when a limited one stops, removed when a
/// check reaches the end of its walk.
///
/// ```
/// order seed 8211946
/// since 2026-12-01..
/// after 3f2a…
/// ```
public struct VerifyProgress: Sendable, Equatable {
    /// The file's name in the catalogue folder.
    public static let fileName = "verify.progress"

    public var walk: VerifyWalk

    public init(walk: VerifyWalk) {
        self.walk = walk
    }

    /// The progress recorded in `folder`, or nil when there is none.
    /// - Throws: `CatalogueError` when the file is there but is not a progress file album wrote.
    public static func recorded(in folder: String) throws -> VerifyProgress? {
        let path = folder + "/" + fileName
        guard FileSystem.exists(path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw CatalogueError("cannot read \(path.shown): remove it to start the deep check over")
        }
        var walk = VerifyWalk()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            let value = parts.count == 2 ? parts[1] : ""
            switch parts.first ?? "" {
            case "order" where value == "id": walk.seed = nil
            case "order" where value.hasPrefix("seed ") && UInt64(value.dropFirst(5)) != nil: walk.seed = UInt64(value.dropFirst(5))
            case "since" where (try? DateRange(parsing: value)) != nil: walk.since = try? DateRange(parsing: value)
            case "after" where !value.isEmpty: walk.after = value
            default:
                throw CatalogueError("\(path.shown) has a line album did not write (\(String(line).shown)): remove it to start the deep check over")
            }
        }
        return VerifyProgress(walk: walk)
    }

    /// The file's text.
    public var text: String {
        "order \(walk.order)\n" + (walk.since.map { "since \($0.start ?? "")..\n" } ?? "") + (walk.after.map { "after \($0)\n" } ?? "")
    }

    /// Writes the progress to `folder` atomically.
    public func write(in folder: String) throws {
        try AtomicFile.write(Array(text.utf8), to: folder + "/" + VerifyProgress.fileName)
    }

    /// Removes the progress file from `folder`, if there is one.
    public static func clear(in folder: String) throws {
        do {
            try FileSystem.remove(folder + "/" + fileName)
        } catch where error.notFound {
            return
        }
    }
}
