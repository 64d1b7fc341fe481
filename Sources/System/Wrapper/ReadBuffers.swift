import Glibc
import Synchronization

/// The memory files are read into when they are large (an original, the scheduler's look at a frame header),
/// reused from one file to the next instead of mapped afresh for each.
///
/// Below malloc's fixed mmap threshold (128 KiB, `Vips.Settings.mmapThresholdBytes`) a file's bytes come from the
/// arena. Above it every read used to map new pages, fault each one in, have the kernel zero it, and unmap it when
/// the photo was done: for an original that is a fault per 4 KiB (1 500 for a 6 MB file) and the pages' zeroing,
/// all kernel time (Benchmarks/INVESTIGATION.md section 26). A buffer handed back here keeps its pages for the next
/// file, so a worker reading one original after another faults only where a file is larger than the last.
///
/// What it promises:
/// - A buffer is handed out to one `FileBytes` at a time, and comes back only from its `deinit`, when nothing can
///   use the bytes any more (an `Image` keeps its `FileBytes` alive while any image of its pipeline exists, and
///   libvips' operation cache is off, so no pipeline outlives it): bytes are never changed under a decode.
/// - At most `kept` buffers wait here between files (the workers': a third one in flight is unmapped when it comes
///   back), and none larger than `largest`.
/// - A buffer holds no more resident pages than the file in it (rounded up to a page): after each read the pages
///   beyond it are given back (`MADV_DONTNEED`), so memory is what a fresh buffer per file held, the held files'
///   bytes, and a waiting buffer holds its last file's pages.
package enum ReadBuffers {
    /// Buffers kept between files: one per worker of a 2-core run.
    package static let kept = 2
    /// Files from this size come from here; smaller ones from malloc, whose arena serves them without a mapping.
    package static let smallest = 128 << 10
    /// Buffers above this are unmapped when they come back: a rare huge file's memory is not kept.
    package static let largest = 64 << 20

    /// One mapping: `capacity` bytes at `base`, of which the first `resident` may hold pages.
    struct Buffer: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let capacity: Int
        var resident: Int
    }

    private static let waiting = Mutex<[Buffer]>([])
    /// Counts for tests and measurements: buffers mapped, and files read into a reused buffer.
    private static let counts = Mutex<(mapped: Int, reused: Int)>((0, 0))

    private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    private static let granule = 1 << 20

    /// A buffer of at least `size` bytes: the smallest waiting one that holds it, else a new mapping (the largest
    /// waiting one is unmapped to make room, so that no more than `kept` exist between files). nil when the system
    /// has no memory for it (the caller says so).
    static func take(_ size: Int) -> Buffer? {
        let found: Buffer? = waiting.withLock { buffers in
            if let index = buffers.indices.filter({ buffers[$0].capacity >= size }).min(by: { buffers[$0].capacity < buffers[$1].capacity }) {
                return buffers.remove(at: index)
            }
            if buffers.count >= kept, let index = buffers.indices.max(by: { buffers[$0].capacity < buffers[$1].capacity }) {
                unmap(buffers.remove(at: index))
            }
            return nil
        }
        if let found {
            counts.withLock { $0.reused += 1 }
            return found
        }
        let capacity = (size + granule - 1) / granule * granule
        guard let base = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), base != MAP_FAILED else {
            return nil
        }
        counts.withLock { $0.mapped += 1 }
        return Buffer(base: base, capacity: capacity, resident: capacity)
    }

    /// After `used` bytes were read into `buffer`: the pages beyond them are given back to the system, so the
    /// buffer holds no more memory than the file.
    static func trim(_ buffer: inout Buffer, to used: Int) {
        let keep = min(buffer.capacity, (used + page - 1) / page * page)
        if buffer.resident > keep, madvise(buffer.base + keep, buffer.resident - keep, MADV_DONTNEED) == 0 {
            buffer.resident = keep
        }
    }

    /// A buffer no `FileBytes` uses any more: kept for the next file, or unmapped.
    static func give(_ buffer: Buffer) {
        let unwanted: Buffer? = buffer.capacity > largest ? buffer : waiting.withLock { buffers in
            guard buffers.count < kept else { return buffer }
            buffers.append(buffer)
            return nil
        }
        if let unwanted { unmap(unwanted) }
    }

    private static func unmap(_ buffer: Buffer) {
        munmap(buffer.base, buffer.capacity)
    }

    /// Buffers mapped and reads into a reused buffer since the process started.
    package static var statistics: (mapped: Int, reused: Int) { counts.withLock { $0 } }
}
