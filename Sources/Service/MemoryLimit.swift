import System

/// What a run can afford under an address-space limit (`ulimit -v`): how many workers, and how large a memory budget.
///
/// Under such a limit every mapping counts, touched or not (`AddressSpace`), and some allocations cannot fail
/// gracefully: GLib's `g_malloc` and Swift's allocator end the process. So album works out at start, from what it
/// has mapped once libvips and the catalogue are open, what its workers will map: their threads' stacks, a working
/// allowance for a photo's bytes and its encoded output, and the decoded pixels of the memory budget. Too little for
/// one worker is refused (exit 3) before any photo is touched; otherwise fewer workers and a smaller budget are used.
///
/// Example: under `ulimit -v 512M` with 8 MB thread stacks and about 200 MB mapped at start, 2 workers are asked
/// for and 1 runs, with a memory budget of about 38 MP (when more was asked for).
struct MemoryLimit {
    /// The address-space limit, in bytes.
    package var limit: Int
    /// Bytes mapped when the run is about to start its workers.
    package var inUse: Int
    /// One thread's stack, in bytes.
    var threadStack: Int

    /// Threads a run has besides its workers' (Dispatch's manager, the catalogue's owner, the progress timer,
    /// signals). Measured: 9 threads at 1 worker, 12 at 2, the main thread's stack already mapped.
    static let runThreads = 6
    /// Threads per worker: its Dispatch thread and its pipeline's libvips threads (3 measured).
    static let workerThreads = 3
    /// A worker's memory outside the pixel budget: the original's bytes, the encoded output (copied once), tiles.
    static let workerWorkingBytes = 64 << 20
    /// Room for what grows during a run besides the photos: Swift's and GLib's small allocations, SQLite's cache.
    static let headroomBytes = 48 << 20
    /// Address space per megapixel of the budget: 8-bit RGB.
    static let bytesPerMegapixel = 3 << 20
    /// The smallest budget album runs with: a 16 MP photo decoded whole.
    static let minimumMegapixels = 16

    /// Workers and budget that fit.
    package struct Plan: Equatable {
        package var workers: Int
        package var megapixels: Int
    }

    /// Bytes one worker adds: its threads' stacks and its working allowance.
    var workerBytes: Int { Self.workerThreads * threadStack + Self.workerWorkingBytes }

    /// Bytes left for workers and pixels once the run's own threads and headroom are counted.
    package var free: Int { limit - inUse - Self.headroomBytes - Self.runThreads * threadStack }

    /// The most of `workers` and `megapixels` that fits under the limit.
    /// - Throws: `MemoryLimitError` when even one worker with the smallest budget does not fit.
    package func plan(workers: Int, megapixels: Int) throws -> Plan {
        let smallest = Self.minimumMegapixels * Self.bytesPerMegapixel
        let affordable = (free - smallest) / workerBytes
        guard free >= smallest, affordable >= 1 else {
            let needed = inUse + Self.headroomBytes + Self.runThreads * threadStack + workerBytes + smallest
            let limitText = AddressSpace.limitDescription ?? "the address-space limit is \(AddressSpace.megabytes(limit))"
            throw MemoryLimitError(message: """
                not enough memory to run: \(limitText), album has \(AddressSpace.megabytes(inUse)) mapped before its \
                first photo (its libraries and libvips' format modules), and a run with one worker needs about \
                \(AddressSpace.megabytes(needed)) (\(Self.workerThreads + Self.runThreads) thread stacks of \
                \(AddressSpace.megabytes(threadStack)), working memory, a \(Self.minimumMegapixels) MP memory budget). \
                Raise the limit to at least that (ulimit -v \((needed + 1023) >> 10)), or remove it.
                """)
        }
        let chosen = min(workers, affordable)
        let pixels = (free - chosen * workerBytes) / Self.bytesPerMegapixel
        return Plan(workers: chosen, megapixels: min(megapixels, pixels))
    }
}
