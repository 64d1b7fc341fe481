import Foundation
import SQLite
import System
import Catalogue

/// `album verify` as a service above the store: SQLite's checks and the rows that point nowhere (asked of the
/// store, `Catalogue+Integrity`), then every file the catalogue records, re-hashed. It only reads: a `CatalogueReader`
/// serves, and `album verify` gives it the writer only so that files do not change under it.
public struct Verifier {
    /// The catalogue it checks.
    public let catalogue: CatalogueReader

    public init(_ catalogue: CatalogueReader) {
        self.catalogue = catalogue
    }

    /// The files a run was replacing when it stopped (a kill or a power cut between marking the row and recording
    /// the new file): not problems, since their rows claim no bytes, but `verify` lists them, and the next run
    /// writes them again.
    public func unfinishedRenditions() throws -> [Rendition] {
        try catalogue.renditions(kind: nil).filter(\.isBeingWritten).sorted { $0.path < $1.path }
    }

    /// Everything wrong with the catalogue, re-hashing every file it records: SQLite's integrity and foreign-key
    /// checks, rows that point at missing photos or runs, every rendition's file (there, regular, its size and
    /// SHA-256), and every current original (the user's file, or the catalogue's copy) against its recorded hash.
    /// Files nobody records are not problems: `album gc` reports and removes those. A database too damaged to be
    /// read to the end is one more problem, with SQLite's reason, after what could be checked.
    ///
    /// A photo's state is not a problem (`VerifyStates`): a superseded version's original is not checked, a
    /// `changed` original (its stat and its bytes differ: an edit) is the next run's to import, and a `missing` one
    /// that `album prune --keep-missing` kept is what the user chose. A missing original is a problem otherwise,
    /// and so is one whose stat is as recorded but whose bytes are not (damaged on disk).
    public func verify() throws -> [CatalogueProblem] {
        try verifyWithStates().problems
    }

    /// `verify()`'s problems, and the states it met that are not problems.
    public func verifyWithStates() throws -> (problems: [CatalogueProblem], states: VerifyStates) {
        let databasePath = catalogue.folder + "/" + Catalogue.databaseName
        var problems: [CatalogueProblem] = []
        var states = VerifyStates()
        do {
            try verify(into: &problems, states: &states, databasePath: databasePath)
        } catch let error as SQLiteError where error.isCorrupt {
            problems.append(CatalogueProblem(path: databasePath, problem: "the database cannot be read to the end: \(error.message)"))
        }
        return (problems, states)
    }

    private func verify(into problems: inout [CatalogueProblem], states: inout VerifyStates, databasePath: String) throws {
        for message in try catalogue.integrityFindings() {
            problems.append(CatalogueProblem(path: databasePath, problem: "integrity check: \(message)"))
        }
        for (table, row, parent) in try catalogue.foreignKeyViolations() {
            problems.append(CatalogueProblem(path: databasePath, problem: "\(table) row \(row) refers to a missing \(parent) row"))
        }
        for (row, path, key) in try catalogue.danglingRows() {
            let sentence: String
            switch row {
            case .renditionPhoto: sentence = "its photo \(key) is not in the catalogue"
            case .stepPhoto: sentence = "a step refers to photo \(key), which is not in the catalogue"
            case .stepRun: sentence = "a step refers to run \(key), which is not in the catalogue"
            }
            problems.append(CatalogueProblem(path: path, problem: sentence, kind: .row))
        }
        for rendition in try catalogue.renditions(kind: nil) {
            // A file a stopped run was replacing: its row claims no bytes, and verify lists it apart (`unfinished`).
            if rendition.isBeingWritten { continue }
            var problem = Verifier.check(rendition.path, bytes: rendition.bytes, hash: rendition.fileHash, what: "\(rendition.kind.rawValue) rendition")
            if rendition.kind == .export, let other = try Catalogue.otherOwner(of: rendition.path, in: catalogue) {
                problem = (problem.map { $0 + "; " } ?? "") + "another catalogue (id \(other)) exported over it"
            }
            if let problem {
                problems.append(CatalogueProblem(path: rendition.path, problem: problem + " (photo \(rendition.photo.prefix(8)))",
                                                kind: .rendition, photo: rendition.photo))
            }
        }
        let photos = try catalogue.allPhotos()
        let allAliases = try catalogue.allAliases()
        let allSeconds = try catalogue.allSecondOriginals()
        let replaced = PhotoRecord.supersededIDs(photos, aliases: allAliases, seconds: allSeconds)
        let aliases = Dictionary(grouping: allAliases, by: \.photo)
        let seconds = Dictionary(grouping: allSeconds, by: \.photo)
        for photo in photos {
            let condition = photo.condition(isSuperseded: replaced.contains(photo.id), aliases: aliases[photo.id] ?? [])
            // A pair's other file, checked while its photo is current and there (a missing photo is reported, or kept,
            // by its own original).
            if condition.state != .superseded, condition.state != .missing {
                for second in seconds[photo.id] ?? [] { Verifier.check(second, problems: &problems, states: &states) }
            }
            let id = " (photo \(photo.id.prefix(8)))"
            switch condition.state {
            case .superseded:
                states.superseded += 1
                // An earlier version: its file now holds the newer one. The catalogue's own copy of it (mode: copy)
                // is still checked below: it is the only copy of those bytes.
                if photo.storedPath == nil { continue }
            case .missing where photo.storedPath == nil && photo.missingKept == nil:
                problems.append(CatalogueProblem(path: photo.path, problem: "the original is missing" + id, kind: .original, photo: photo.id))
                continue
            case .missing:
                // Kept by `album prune --keep-missing`, or gone while the catalogue keeps its own copy (checked below).
                if photo.missingKept != nil { states.missingKept += 1 } else { states.missing += 1 }
                if photo.storedPath == nil { continue }
            case .changed:
                states.changed += 1  // edited: the next run of its folder imports the new version
                if photo.storedPath == nil { continue }
            case .damaged:
                states.damaged += 1
            case .ok:
                break
            }
            // Not missing, yet its own file is gone: an alias holds its bytes (the next run makes that name its path).
            if photo.storedPath == nil, PhotoRecord.isGone(photo.path) { continue }
            let path = photo.originalPath(in: catalogue.folder)
            let what = photo.storedPath == nil ? "original" : "catalogue's copy of the original"
            if var problem = Verifier.check(path, bytes: photo.bytes, hash: photo.hash, what: what) {
                // Its state said unchanged (the stat as recorded, or the bytes hashed equal): the bytes rotted in place.
                if photo.storedPath == nil, problem.hasSuffix("differs from the one recorded") {
                    problem += ", though its size, inode and modification time are as recorded: damaged on disk"
                }
                problems.append(CatalogueProblem(path: path, problem: problem + id, kind: .original, photo: photo.id))
            }
        }
    }

    /// Checks a current photo's second original (a pair's other file) as its own original is checked: gone is a
    /// problem ("the second original is missing"), unless a prune forgets it; edited (its stat and its bytes not the
    /// recorded ones) is the `changed` state, which the next run records as its new version; its bytes changed
    /// under the recorded stat is damage on disk.
    static func check(_ second: SecondOriginal, problems: inout [CatalogueProblem], states: inout VerifyStates) {
        let id = " (photo \(second.photo.prefix(8)))"
        if second.isChanged {
            states.changed += 1
            return
        }
        if var problem = Verifier.check(second.path, bytes: second.bytes, hash: second.hash, what: "second original") {
            if problem.hasSuffix("differs from the one recorded") {
                problem += ", though its size, inode and modification time are as recorded: damaged on disk"
            }
            problems.append(CatalogueProblem(path: second.path, problem: problem + id, kind: .original, photo: second.photo))
        }
    }

    /// What is wrong with the file at `path`, expected to hold `bytes` bytes hashing to `hash`, or nil when nothing.
    package static func check(_ path: String, bytes: Int, hash: String, what: String) -> String? {
        let info: FileStatus
        do {
            info = try FileStatus(path, followingLinks: true)
        } catch {
            return error.notFound ? "the \(what) is missing" : "the \(what) cannot be read: \(error.reason)"
        }
        guard info.isRegular else { return "the \(what) is not a regular file" }
        guard info.size == bytes else { return "the \(what) has \(info.size) bytes, not the \(bytes) recorded" }
        do {
            guard try FileBytes(path: path).sha256() == hash else { return "the \(what)'s SHA-256 differs from the one recorded" }
        } catch let error as FileBytesError {
            return "the \(what) cannot be read: \(error.reason)"
        } catch {
            return "the \(what) cannot be read: \(error)"
        }
        return nil
    }
}
