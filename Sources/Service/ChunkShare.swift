import Catalogue
import Stages

/// What makes a `JobRun` one chunk of a distributed run (docs/distributed.md): the chunk's own catalogue database
/// instead of the catalogue's (`Catalogue.forChunk`, opened under the chunk's lock by `ChunkRun`), the files and
/// photos the planner gave it instead of import's scan and phase 2's whole catalogue, and the run row it records
/// under the distributed run's parent row.
public struct ChunkShare: Sendable {
    /// Opens the chunk's catalogue.
    package var open: @Sendable () throws -> Catalogue
    /// The chunk's files, as import's scan would have found them.
    package var scan: ImportScan
    /// The catalogue photos phase 2 takes: those the planner assigned to this chunk.
    package var photos: Set<String>
    package var parent: Int64
    package var chunk: Int

    package init(open: @escaping @Sendable () throws -> Catalogue, scan: ImportScan, photos: Set<String>, parent: Int64, chunk: Int) {
        self.open = open
        self.scan = scan
        self.photos = photos
        self.parent = parent
        self.chunk = chunk
    }
}
