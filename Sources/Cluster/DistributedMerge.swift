import Foundation
import System
import Core
import Catalogue
import Maintenance

/// `album merge RUNDIR [--partial]`: carries finished chunks into the catalogue, under its writer lock, one
/// transaction per chunk (`ChunkMerger`), and ends the distributed run once every chunk is in.
///
/// Merging is idempotent: a chunk merged again replaces its rows, so a merge job that ran twice, or a chunk that
/// ran again after its merge, changes no count. A chunk made by another album or libvips version than the planner's
/// is refused, named, and left out.
public struct DistributedMerge {
    public var folder: RunFolder
    /// Merge the chunks that finished and leave the run open for the others (`--partial`); without it, merge
    /// nothing while a chunk has not finished.
    public var partial = false
    /// Wait up to this long for every chunk to finish before merging (`--wait`; a Kubernetes merge Job).
    public var waitSeconds: Double? = nil

    public init(folder: RunFolder, partial: Bool = false, waitSeconds: Double? = nil) {
        self.folder = folder
        self.partial = partial
        self.waitSeconds = waitSeconds
    }

    /// What a merge did, for its summary.
    public struct Outcome {
        public var merged: [MergedChunk] = []
        /// Chunks not finished (left for a later merge), and chunks refused (with why).
        public var unfinished: [Int] = []
        public var refused: [(chunk: Int, reason: String)] = []
        /// Whether the distributed run is now ended (every chunk merged).
        public var ended = false
        public var failedPhotos: Int { merged.map(\.failedPhotos).reduce(0, +) }
        public var collisions: [String] { merged.flatMap(\.collisions) }
    }

    /// Merges and returns what it did.
    /// - Throws: `DistributedError` (exit 3) when chunks are unfinished without `--partial`, or when the run is not
    ///   open (abandoned); `CatalogueError` when the catalogue is in use.
    public func merge() throws -> Outcome {
        let plan = try DistributedPlan.read(folder)
        try waitForChunks(plan)
        var outcome = Outcome()
        let finished = (0..<plan.chunks).filter { ChunkOutcome.read(folder, chunk: $0) != nil }
        outcome.unfinished = (0..<plan.chunks).filter { !finished.contains($0) }
        // First, before this process opens the catalogue: a finished chunk killed before its view became its delta
        // is made its delta here, under the chunk's lock. A view may be a hard link of catalogue.db, and closing it
        // must not drop this process's locks on that file (POSIX locks go with any descriptor of the file closed).
        for chunk in finished where !FileSystem.exists(folder.database(chunk)) && FileSystem.exists(folder.view(chunk)) {
            do {
                // What the chunk read in place must still be the catalogue as planned.
                try plan.requireCatalogueUnchanged("chunk \(chunk)", folder: folder)
                try compact(chunk, plan: plan)
            } catch {
                outcome.refused.append((chunk, "its view \(folder.view(chunk)) could not be made its delta: \(DistributedLaunch.message(of: error))"))
            }
        }
        let catalogue = try Catalogue(folder: plan.catalogue, create: false, writing: true, whileChunksRead: true)
        defer { catalogue.close() }
        guard let record = try catalogue.distributedRun(plan.run) else {
            throw DistributedError("catalogue \(plan.catalogue) has no distributed run \(plan.run); \(folder.path) belongs to another catalogue", exitCode: .environment)
        }
        guard record.state != "abandoned" else {
            throw DistributedError("distributed run \(plan.run) was abandoned; its chunks are not merged", exitCode: .environment)
        }
        if record.state == "merged" {
            Console.err("album: distributed run \(plan.run) was merged at \(record.ended ?? "an earlier merge"); nothing to do")
            return Outcome(ended: true)
        }
        if !outcome.unfinished.isEmpty, !partial {
            let which = outcome.unfinished.count == 1 ? "chunk \(outcome.unfinished[0]) has" : "chunks \(ChunkList.text(outcome.unfinished)) have"
            let partially = plan.readsCatalogue == nil ? "merges the finished ones now" : "makes the finished ones' deltas now (the chunks read the catalogue in place: it is written once every chunk finished)"
            throw DistributedError("\(which) not finished (\(outcome.unfinished.count) of \(plan.chunks) chunks); nothing was merged. Wait for them, or run one again with `album chunk \(folder.path) K`; `album merge --partial` \(partially)", exitCode: .environment)
        }
        var deltas: [Int] = []
        for chunk in finished where !outcome.refused.contains(where: { $0.chunk == chunk }) {
            if let reason = try refusal(of: folder.database(chunk), chunk: chunk, plan: plan) {
                outcome.refused.append((chunk, reason))
            } else {
                deltas.append(chunk)
            }
        }
        if plan.readsCatalogue != nil {
            // The chunks read catalogue.db itself: it is written only once none of them can read it any more, every
            // chunk finished and its view made its delta (which carries the rows it started from), and no delta is
            // refused (made again, a chunk reads the catalogue as planned).
            let waiting = (outcome.unfinished + outcome.refused.map(\.chunk)).sorted()
            if !waiting.isEmpty {
                Console.err("album: the chunks of distributed run \(plan.run) read \(plan.catalogue)/\(Catalogue.databaseName) in place, so nothing is merged until chunk\(waiting.count == 1 ? "" : "s") \(ChunkList.text(waiting)) can be too (finished, or made again); \(deltas.count) finished chunk\(deltas.count == 1 ? " is" : "s are") kept as deltas for the merge")
                return outcome
            }
            Catalogue.removeInPlaceReaders(folder: plan.catalogue)
        }
        for chunk in deltas {
            outcome.merged.append(try ChunkMerger(catalogue).merge(database: folder.database(chunk), parent: plan.run, chunk: chunk,
                                                                  merged: Timestamp.now()))
        }
        if outcome.unfinished.isEmpty, outcome.refused.isEmpty {
            let counts = try catalogue.chunkCounts(of: plan.run).compactMap(JSONValue.init(parsing:))
                .reduce(JSONValue.null) { $0.addingCounts($1, takingLargest: ["superseded"]) }
            let failed = try catalogue.mergedChunkFailures(of: plan.run)
            try catalogue.endDistributed(run: plan.run, state: "merged", status: failed > 0 ? "failed" : "ok",
                                         counts: counts == .null ? nil : counts.text, at: Timestamp.now())
            outcome.ended = true
            // The deltas (and a snapshot, when the run kept one) are what the run folder holds in bulk; the
            // manifests, outcomes and logs stay.
            for chunk in 0..<plan.chunks {
                try? FileSystem.remove(folder.database(chunk))
                Catalogue.removeView(folder.view(chunk))
            }
            try? FileSystem.remove(folder.snapshot)
        }
        return outcome
    }

    /// Makes finished chunk `chunk`'s delta from its view, holding the chunk's lock (a chunk process still making
    /// it finishes first).
    private func compact(_ chunk: Int, plan: DistributedPlan) throws {
        let lock = try FileLock(path: folder.lock(chunk))
        defer { lock.close() }
        try lock.lock()
        guard !FileSystem.exists(folder.database(chunk)) else { return }
        try Catalogue.compactChunk(view: folder.view(chunk), database: folder.database(chunk), parent: plan.run, chunk: chunk)
    }

    /// Why the chunk database at `path` is not merged, or nil: its attempts were made by another album or libvips.
    private func refusal(of path: String, chunk: Int, plan: DistributedPlan) throws -> String? {
        guard FileSystem.exists(path) else { return "its database \(path) is missing" }
        if let damage = try Catalogue.chunkDamage(database: path) {
            return "its database \(path) is damaged (\(damage)); delete it and \(folder.outcome(chunk)), then run the chunk again (album chunk \(folder.path) \(chunk)): it makes the same files"
        }
        let attempts = try Catalogue.chunkAttempts(database: path, parent: plan.run)
        if attempts.isEmpty { return "its database \(path) records no attempt of this run" }
        for attempt in attempts where attempt.albumVersion != plan.album || attempt.vipsVersion != plan.vips {
            return "it was made by album \(attempt.albumVersion) with libvips \(attempt.vipsVersion) on \(attempt.host), and the run was planned with album \(plan.album) with libvips \(plan.vips); run it again on a node with those versions"
        }
        return nil
    }

    /// Waits, polling the run folder every second, until every chunk has finished or `waitSeconds` passed.
    private func waitForChunks(_ plan: DistributedPlan) throws {
        guard let waitSeconds else { return }
        let deadline = Date().addingTimeInterval(waitSeconds)
        while (0..<plan.chunks).contains(where: { ChunkOutcome.read(folder, chunk: $0) == nil }) {
            guard Date() < deadline else { return }  // merge then says which chunks are missing
            Thread.sleep(forTimeInterval: 1)
        }
    }
}

/// Chunk numbers as text: "3, 5 and 9" (the first 20, then how many more).
package enum ChunkList {
    package static func text(_ chunks: [Int]) -> String {
        let shown = chunks.prefix(20).map(String.init)
        let more = chunks.count > 20 ? " and \(chunks.count - 20) more" : ""
        guard shown.count > 1, more.isEmpty else { return shown.joined(separator: ", ") + more }
        return shown.dropLast().joined(separator: ", ") + " and " + shown.last!
    }
}

/// What `album merge` (and the local engine after its chunks) says about a merge, on stderr.
package enum MergeSummary {
    package static func print(_ outcome: DistributedMerge.Outcome, folder: RunFolder) {
        for chunk in outcome.merged {
            Console.err("merged chunk \(chunk.chunk): \(chunk.attempts.count) attempt\(chunk.attempts.count == 1 ? "" : "s"), \(chunk.photos) photo rows, \(chunk.renditions) rendition rows, \(chunk.steps) steps, \(chunk.failedPhotos) failed photos")
        }
        for (chunk, reason) in outcome.refused { Console.err("album: chunk \(chunk) not merged: \(reason)") }
        if !outcome.collisions.isEmpty {
            Console.err("album: \(outcome.collisions.count) export collisions (another photo's export had the name; that photo's export failed):")
            for collision in outcome.collisions.prefix(20) { Console.err("  \(collision.shown)") }
        }
        if outcome.ended, outcome.merged.isEmpty {
            return
        } else if outcome.ended {
            Console.err("distributed run merged: \(outcome.merged.count) chunks, \(outcome.failedPhotos) failed photos")
        } else {
            Console.err("distributed run still open: chunks \(ChunkList.text(outcome.unfinished + outcome.refused.map(\.chunk))) not merged yet (\(folder.path))")
        }
    }
}

extension DistributedMerge {
    /// Gives up the distributed run in `folder` (`album dist abandon`): the catalogue records it `abandoned`, so
    /// that gc, prune, rm, relocate and runs work again, and its chunk databases and snapshot are deleted. Chunks
    /// merged with `--partial` stay merged. Returns what the user still has to do: the engine's jobs to cancel, and
    /// `album gc` for the renditions the unmerged chunks wrote.
    public static func abandon(_ folder: RunFolder) throws -> [String] {
        // A planner killed before it wrote run.json leaves an open run without one: the folder's place names both.
        let plan = try? DistributedPlan.read(folder)
        let catalogueFolder = plan?.catalogue ?? folder.catalogue
        // Chunks still running when the run is given up read the catalogue written from now on: cancel them first.
        let catalogue = try Catalogue(folder: catalogueFolder, create: false, writing: true, whileChunksRead: true)
        defer { catalogue.close() }
        let relative = RunFolder.relative(run: plan?.run ?? -1)
        guard let record = try plan.map({ try catalogue.distributedRun($0.run) }) ?? catalogue.openDistributedRun(),
              plan != nil || catalogue.folder + "/" + record.folder == folder.path else {
            throw DistributedError("catalogue \(catalogueFolder) has no distributed run in \(folder.path)\(plan == nil ? "" : " (\(relative))")", exitCode: .environment)
        }
        guard record.state == "open" else {
            throw DistributedError("distributed run \(record.run) is \(record.state) already", exitCode: .environment)
        }
        try catalogue.endDistributed(run: record.run, state: "abandoned", status: "abandoned", counts: nil, at: Timestamp.now())
        Catalogue.removeInPlaceReaders(folder: catalogueFolder)
        for chunk in 0..<record.chunks {
            try? FileSystem.remove(folder.database(chunk))
            Catalogue.removeView(folder.view(chunk))
        }
        try? FileSystem.remove(folder.snapshot)
        var notes = ["the files its unmerged chunks wrote under the catalogue are not recorded: `album gc --catalogue \(catalogueFolder)` deletes them"]
        switch DistributedEngine(rawValue: record.engine) ?? .local {
        case .slurm:
            let ids = RunFolder.text(of: folder.engineFolder + "/slurm.json").flatMap(JSONValue.init(parsing:))
            let jobs = [ids?["array_job"]?.stringValue, ids?["merge_job"]?.stringValue].compactMap { $0 }
            notes.insert("cancel its Slurm jobs if they still run: scancel \(jobs.isEmpty ? "JOBID" : jobs.joined(separator: " "))", at: 0)
        case .k8s:
            notes.insert("delete its Kubernetes Jobs if they still run: kubectl delete -f \(folder.path)/\(KubernetesManifests.chunksFile) -f \(folder.path)/\(KubernetesManifests.mergeFile)", at: 0)
        case .local:
            break
        }
        return notes
    }
}
