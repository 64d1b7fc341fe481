import System
import Core

/// A distributed run's folder inside the catalogue, `CATALOGUE/dist/run-N/` (N: the parent run's id), shared by
/// every node (docs/distributed.md):
///
/// ```
/// dist/run-7/
///   run.json            what was planned: the job, its variables, the chunks, the planner's versions (`DistributedPlan`)
///   snapshot.db         only when a reader held up planning's checkpoint: the catalogue as planned (VACUUM INTO);
///                       otherwise the chunks read catalogue.db itself, which nothing writes until they finished
///   chunk-K.json        chunk K's share: files to import, catalogue photos (`ChunkManifest`)
///   chunk-K.view.db     while chunk K runs, its catalogue: a hard link to catalogue.db (or snapshot.db; no copy),
///   chunk-K.view.db-wal whose changes go to its own log, never into the linked file (`Catalogue.forChunk`)
///   chunk-K.db          once the chunk finished, its delta: the rows of the photos it touched (`Catalogue.compactChunk`)
///   chunk-K.lock        held by the process working on chunk K; a second copy waits for it
///   chunk-K.done        written when chunk K finished (`ChunkOutcome`), even with failed photos
///   slurm/, k8s/        the engine's scripts and manifests, and its logs
/// ```
public struct RunFolder: Sendable, Equatable {
    /// The folder, absolute.
    public let path: String

    public init(_ path: String) { self.path = Paths.normalised(Paths.absolute(path)) }

    /// The folder of run `run` in `catalogue`.
    package init(catalogue: String, run: Int64) { self.init(catalogue + "/" + RunFolder.relative(run: run)) }

    /// `dist/run-N`, as `distributed.folder` records it.
    package static func relative(run: Int64) -> String { "dist/run-\(run)" }

    package var plan: String { path + "/run.json" }
    package var snapshot: String { path + "/snapshot.db" }
    package func manifest(_ chunk: Int) -> String { path + "/chunk-\(chunk).json" }
    package func database(_ chunk: Int) -> String { path + "/chunk-\(chunk).db" }
    package func view(_ chunk: Int) -> String { path + "/chunk-\(chunk).view.db" }
    package func lock(_ chunk: Int) -> String { path + "/chunk-\(chunk).lock" }
    package func outcome(_ chunk: Int) -> String { path + "/chunk-\(chunk).done" }
    var engineFolder: String { path + "/engine" }

    /// The catalogue folder this run folder is in (`CATALOGUE/dist/run-N`), by its place.
    package var catalogue: String { Directory.parent(of: Directory.parent(of: path)) }

    /// The text of `file` in the folder, or nil when it cannot be read.
    package static func text(of file: String) -> String? {
        guard let bytes = try? FileBytes(path: file, maxBytes: 1 << 30) else { return nil }
        return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes `text` to `file` atomically and durably.
    package static func write(_ text: String, to file: String) throws {
        try AtomicFile.write(Array(text.utf8), to: file)
    }
}
