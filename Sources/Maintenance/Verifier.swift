import Foundation
import SQLite
import System
import Catalogue
import Core

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
        try catalogue.renditionsBeingWritten().sorted { $0.path < $1.path }
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
        let outcome = try check(.deep, walk: VerifyWalk(), recordingProgress: false)
        return (outcome.problems, outcome.states)
    }

    /// The catalogue checked at `depth`: the deep check (`verify()`) over the photos of `walk`, recording its progress
    /// in the catalogue folder when `recordingProgress` (`VerifyProgress`), or the quick one over every file.
    public func check(_ depth: VerifyDepth, walk: VerifyWalk, recordingProgress: Bool) throws -> VerifyOutcome {
        let databasePath = catalogue.folder + "/" + Catalogue.databaseName
        var outcome = VerifyOutcome(walk: walk)
        var ordered: [(place: ProblemPlace, problem: CatalogueProblem)] = []
        do {
            try databaseChecks(depth, into: &outcome.problems, databasePath: databasePath)
            switch depth {
            case .deep: try deepFiles(walk, into: &ordered, outcome: &outcome, recordingProgress: recordingProgress)
            case .quick: try quickFiles(into: &ordered, outcome: &outcome)
            }
        } catch let error as SQLiteError where error.isCorrupt {
            outcome.problems += ordered.map(\.problem)
            ordered = []
            outcome.problems.append(CatalogueProblem(path: databasePath, problem: "the database cannot be read to the end: \(error.message)"))
        }
        outcome.problems += ordered.enumerated().sorted { ($0.element.place, $0.offset) < ($1.element.place, $1.offset) }.map(\.element.problem)
        return outcome
    }

    /// SQLite's checks (`integrity_check` deep, `quick_check` quick), foreign keys, and rows that point nowhere.
    private func databaseChecks(_ depth: VerifyDepth, into problems: inout [CatalogueProblem], databasePath: String) throws {
        let findings = depth == .deep ? try catalogue.integrityFindings() : try catalogue.quickCheckFindings()
        for message in findings {
            problems.append(CatalogueProblem(path: databasePath, problem: (depth == .deep ? "integrity check: " : "quick check: ") + message))
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
    }

    /// What is wrong with a rendition's file: re-hashed (deep) or stat-ed (quick); nil when nothing.
    private func check(_ rendition: Rendition, _ depth: VerifyDepth) throws -> CatalogueProblem? {
        let what = "\(rendition.kind.rawValue) rendition"
        var problem = depth == .deep ? Verifier.check(rendition.path, bytes: rendition.bytes, hash: rendition.fileHash, what: what)
            : Verifier.statCheck(rendition.path, bytes: rendition.bytes, what: what)
        if depth == .quick, let found = problem, found.hasSuffix("recorded") { problem = found + ": it changed since it was recorded, and the next run writes it again" }
        if rendition.kind == .export, let other = try Catalogue.otherOwner(of: rendition.path, in: catalogue) {
            problem = (problem.map { $0 + "; " } ?? "") + "another catalogue (id \(other)) exported over it"
        }
        return problem.map {
            CatalogueProblem(path: rendition.path, problem: $0 + " (photo \(rendition.photo.prefix(8)))", kind: .rendition, photo: rendition.photo)
        }
    }

    /// The deep check's files: the renditions and originals of `walk`'s photos, each re-hashed, photo by photo in
    /// the walk's order, a batch of the walk at a time (`nextPhotos`), each photo's own rows looked up by index, so
    /// memory does not grow with the catalogue (issue 34); problems are given back in the catalogue's order
    /// (`ProblemPlace`: renditions by row, then photos).
    private func deepFiles(_ walk: VerifyWalk, into ordered: inout [(place: ProblemPlace, problem: CatalogueProblem)], outcome: inout VerifyOutcome,
                           recordingProgress: Bool) throws {
        var recentRuns = Set<Int64>()
        if let since = walk.since {
            recentRuns = Set(try catalogue.runs().filter { since.contains(Timestamp.local($0.started)) }.map(\.id))
        }
        var left = walk.sample ?? Int.max
        var saved = Date()
        outcome.finished = false
        while left > 0 {
            let (batch, more) = try nextPhotos(of: walk, after: outcome.walk.after, limit: min(Verifier.walkBatch, left), recentRuns: recentRuns)
            for (key, id) in batch {
                guard let photo = try catalogue.photo(id: id) else { continue }
                for (row, rendition) in try catalogue.renditionRows(photo: id) where !rendition.isBeingWritten {
                    if let problem = try check(rendition, .deep) { ordered.append((ProblemPlace(rendition: row), problem)) }
                }
                var problems: [CatalogueProblem] = []
                check(photo, isSuperseded: try catalogue.isSuperseded(photo), aliases: try catalogue.aliases(photo: id),
                      seconds: try catalogue.secondOriginals(photo: id), problems: &problems, states: &outcome.states)
                if !problems.isEmpty {
                    let place = try self.place(ofPhoto: id)
                    ordered += problems.map { (place, $0) }
                }
                outcome.checkedPhotos += 1
                outcome.walk.after = key
                left -= 1
                if recordingProgress, Date().timeIntervalSince(saved) >= 2 {
                    try VerifyProgress(walk: outcome.walk).write(in: catalogue.folder)
                    saved = Date()
                }
            }
            if !more {
                outcome.finished = true
                break
            }
        }
        if walk.isWhole {
            // Renditions of no photo of the catalogue (their rows are reported above): their files are checked too.
            try catalogue.forEachRendition(ofNoPhoto: true) { row, rendition in
                if !rendition.isBeingWritten, let problem = try check(rendition, .deep) { ordered.append((ProblemPlace(rendition: row), problem)) }
                return true
            }
        }
        if recordingProgress {
            if outcome.finished { try VerifyProgress.clear(in: catalogue.folder) } else { try VerifyProgress(walk: outcome.walk).write(in: catalogue.folder) }
        }
    }

    /// Where a photo's problems go in the output (`allPhotos`' order).
    private func place(ofPhoto id: String) throws -> ProblemPlace {
        let found = try catalogue.newestFirstPlace(photo: id)
        return ProblemPlace(rendition: nil, added: found?.added ?? "", rowid: found?.rowid ?? 0)
    }

    /// One photo's files, re-hashed: its second originals while it is current and there, then its original (or the
    /// catalogue's copy of it), by its state.
    private func check(_ photo: PhotoRecord, isSuperseded: Bool, aliases: [PhotoAlias], seconds: [SecondOriginal],
                       problems: inout [CatalogueProblem], states: inout VerifyStates) {
        let condition = photo.condition(isSuperseded: isSuperseded, aliases: aliases)
        // A pair's other file, checked while its photo is current and there (a missing photo is reported, or kept,
        // by its own original).
        if condition.state != .superseded, condition.state != .missing {
            for second in seconds { Verifier.check(second, problems: &problems, states: &states) }
        }
        let id = " (photo \(photo.id.prefix(8)))"
        switch condition.state {
        case .superseded:
            states.superseded += 1
            // An earlier version: its file now holds the newer one. The catalogue's own copy of it (mode: copy)
            // is still checked below: it is the only copy of those bytes.
            if photo.storedPath == nil { return }
        case .missing where photo.storedPath == nil && photo.missingKept == nil:
            problems.append(CatalogueProblem(path: photo.path, problem: "the original is missing" + id, kind: .original, photo: photo.id))
            return
        case .missing:
            // Kept by `album prune --keep-missing`, or gone while the catalogue keeps its own copy (checked below).
            if photo.missingKept != nil { states.missingKept += 1 } else { states.missing += 1 }
            if photo.storedPath == nil { return }
        case .changed:
            states.changed += 1  // edited: the next run of its folder imports the new version
            if photo.storedPath == nil { return }
        case .damaged:
            states.damaged += 1
        case .ok:
            break
        }
        // Not missing, yet its own file is gone: an alias holds its bytes (the next run makes that name its path).
        if photo.storedPath == nil, PhotoRecord.isGone(photo.path) { return }
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

    /// The quick check's files, at stat cost: every rendition's size, every current original's size, inode and
    /// modification time (and its second originals'), the catalogue's copies' sizes. No file is read. Rows are read one
    /// at a time (every rendition, then every photo with its own rows by index), none kept.
    private func quickFiles(into ordered: inout [(place: ProblemPlace, problem: CatalogueProblem)], outcome: inout VerifyOutcome) throws {
        try catalogue.forEachRendition { row, rendition in
            if !rendition.isBeingWritten, let problem = try check(rendition, .quick) { ordered.append((ProblemPlace(rendition: row), problem)) }
            return true
        }
        try catalogue.forEachPhoto { photo in
            var problems: [CatalogueProblem] = []
            quickCheck(photo, isSuperseded: try catalogue.isSuperseded(photo), aliases: try catalogue.aliases(photo: photo.id),
                       seconds: try catalogue.secondOriginals(photo: photo.id), problems: &problems, outcome: &outcome)
            if !problems.isEmpty {
                let place = try self.place(ofPhoto: photo.id)
                ordered += problems.map { (place, $0) }
            }
            outcome.checkedPhotos += 1
            return true
        }
    }

    /// One photo at stat cost: as the deep check decides its state, except that an original whose stat is not the
    /// recorded one is `changed` without reading it (a touch, an edit or damage: the deep check tells which), and is
    /// named in `outcome.changed`.
    private func quickCheck(_ photo: PhotoRecord, isSuperseded: Bool, aliases: [PhotoAlias], seconds: [SecondOriginal],
                            problems: inout [CatalogueProblem], outcome: inout VerifyOutcome) {
        let id = " (photo \(photo.id.prefix(8)))"
        let copy = photo.storedPath.map { _ in photo.originalPath(in: catalogue.folder) }
        let checkCopy = { (problems: inout [CatalogueProblem]) in
            if let copy, let problem = Verifier.statCheck(copy, bytes: photo.bytes, what: "catalogue's copy of the original") {
                problems.append(CatalogueProblem(path: copy, problem: problem + id, kind: .original, photo: photo.id))
            }
        }
        if isSuperseded {
            outcome.states.superseded += 1
            checkCopy(&problems)
            return
        }
        var status: FileStatus?
        var gone = false
        do {
            let found = try FileStatus(photo.path, followingLinks: true)
            if found.isRegular { status = found } else { gone = true }
        } catch {
            gone = error.notFound
            if !gone { problems.append(CatalogueProblem(path: photo.path, problem: "the original cannot be read: \(error.reason)" + id, kind: .original, photo: photo.id)) }
        }
        if gone {
            // Held by an alias when one is there with the recorded size (the deep check hashes it when touched).
            if aliases.contains(where: { alias in
                (try? FileStatus(alias.path, followingLinks: true)).map { $0.isRegular && $0.size == photo.bytes } ?? false
            }) {
                if photo.damage != nil { outcome.states.damaged += 1 }
                return
            }
            if photo.storedPath == nil && photo.missingKept == nil {
                problems.append(CatalogueProblem(path: photo.path, problem: "the original is missing" + id, kind: .original, photo: photo.id))
                return
            }
            if photo.missingKept != nil { outcome.states.missingKept += 1 } else { outcome.states.missing += 1 }
            checkCopy(&problems)
            return
        }
        for second in seconds { Verifier.quickCheck(second, problems: &problems, outcome: &outcome) }
        if let status, !FileIdentity(status).isUnchanged(since: photo) {
            outcome.states.changed += 1
            outcome.changed.append(Verifier.changed(photo.path, size: status.size, recorded: photo.bytes, photo: photo.id))
            checkCopy(&problems)
            return
        }
        if photo.damage != nil { outcome.states.damaged += 1 }
        checkCopy(&problems)
    }

    /// A pair's second original at stat cost: gone is a problem, a stat not the recorded one is `changed`.
    static func quickCheck(_ second: SecondOriginal, problems: inout [CatalogueProblem], outcome: inout VerifyOutcome) {
        let status: FileStatus
        do {
            status = try FileStatus(second.path, followingLinks: true)
        } catch {
            let problem = error.notFound ? "the second original is missing" : "the second original cannot be read: \(error.reason)"
            problems.append(CatalogueProblem(path: second.path, problem: problem + " (photo \(second.photo.prefix(8)))", kind: .original, photo: second.photo))
            return
        }
        guard status.isRegular else {
            problems.append(CatalogueProblem(path: second.path, problem: "the second original is not a regular file (photo \(second.photo.prefix(8)))",
                                             kind: .original, photo: second.photo))
            return
        }
        if !FileIdentity(status).isUnchanged(since: second) {
            outcome.states.changed += 1
            outcome.changed.append(Verifier.changed(second.path, size: status.size, recorded: second.bytes, photo: second.photo))
        }
    }

    /// The quick check's line for an original whose stat is not the one recorded.
    static func changed(_ path: String, size: Int, recorded: Int, photo: String) -> CatalogueProblem {
        let what = size != recorded ? "it has \(size) bytes, not the \(recorded) recorded"
            : "its modification time or inode is not the recorded one (the same size)"
        return CatalogueProblem(path: path, problem: "changed since it was recorded: \(what); the next run imports an edit, and `album verify --deep` re-hashes it to tell a touch from an edit or damage (photo \(photo.prefix(8)))",
                                kind: .original, photo: photo)
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

    /// What a stat finds wrong with the file at `path`, expected to hold `bytes` bytes, or nil when nothing: the quick
    /// check's question, in the deep check's words, and no byte read.
    package static func statCheck(_ path: String, bytes: Int, what: String) -> String? {
        let info: FileStatus
        do {
            info = try FileStatus(path, followingLinks: true)
        } catch {
            return error.notFound ? "the \(what) is missing" : "the \(what) cannot be read: \(error.reason)"
        }
        guard info.isRegular else { return "the \(what) is not a regular file" }
        guard info.size == bytes else { return "the \(what) has \(info.size) bytes, not the \(bytes) recorded" }
        return nil
    }

    /// What is wrong with the file at `path`, expected to hold `bytes` bytes hashing to `hash`, or nil when nothing.
    /// The file is hashed as a stream, never held whole, so a video over 2 GiB is checked as a photo is.
    package static func check(_ path: String, bytes: Int, hash: String, what: String) -> String? {
        if let problem = statCheck(path, bytes: bytes, what: what) { return problem }
        do {
            guard try FileBytes.sha256(ofFileAt: path) == hash else { return "the \(what)'s SHA-256 differs from the one recorded" }
        } catch let error as FileBytesError {
            return "the \(what) cannot be read: \(error.reason)"
        } catch {
            return "the \(what) cannot be read: \(error)"
        }
        return nil
    }
}
