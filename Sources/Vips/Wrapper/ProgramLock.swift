internal import CVips
import Synchronization
import System

/// Keeps liborc's code memory to one thread at a time, so that libvips' run-time SIMD code (ORC) can stay on with
/// several workers.
///
/// libvips 8.14 compiles an ORC program when it builds a vertical resize (`reducev`) or an integer convolution
/// (`convi`), and frees it when that operation is finalized, that is when the last image of its pipeline is released.
/// It compiles under its own global lock but frees without one, and liborc 0.4.33's `orc_code_chunk_free` merges
/// the chunks of its shared code region with no lock at all (read in GStreamer/orc's `orccodemem.c`). So one
/// worker's compile or free can meet another's free: Benchmarks/INVESTIGATION.md, section 7, measured 2 crashes in
/// 270 runs of 150 photos at 2 workers.
///
/// The wrapper therefore builds every operation (each `derive`, open and thumbnail call: construction only, no
/// pixels are computed then) and releases every image reference while holding this one lock. Those are the only
/// moments at which libvips compiles or frees ORC code; saves, which compute the pixels, run outside it. The lock is
/// recursive: a release inside a build (libvips dropping an intermediate of its own) cannot deadlock.
///
/// It is taken only while ORC is on (`Vips.Settings.vectorCode`, on by default). For it not to serialise the
/// workers, no build may compute pixels: libvips 8.14's `vips_thumbnail` computes a cropped or rotated thumbnail in
/// memory inside its build (`vips_image_copy_memory` before `vips_smartcrop` and `vips_autorot`, thumbnail.c), and
/// under this lock two workers then decoded one photo after the other. So album asks `vips_thumbnail` only to scale,
/// and rotates and crops itself after the build (`ThumbnailPlan`, Image+Operations.swift), with the pixels libvips'
/// own steps give (Benchmarks/INVESTIGATION.md, sections 7 and 14).
enum ProgramLock {
    /// Whether builds and releases take the lock: set by `Vips.start` from `vectorCode`.
    static let active = Atomic<Bool>(false)

    /// Runs `body`, one operation's construction, with the lock held while ORC is on.
    static func building<T>(_ body: () throws -> T) rethrows -> T {
        guard active.load(ordering: .acquiring) else { return try body() }
        return try mutex.withLock(body)
    }

    /// Drops one reference to a libvips object with the lock held: the last one finalizes its pipeline, and with
    /// it any ORC program the pipeline's operations compiled.
    static func release(_ object: UnsafeMutableRawPointer) {
        building { g_object_unref(gpointer(object)) }
    }

    private static let mutex = RecursiveLock()
}
