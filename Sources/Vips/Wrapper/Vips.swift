internal import CVips
import Foundation
import Synchronization

/// libvips, started once for the whole process.
///
/// libvips' binding guide: initialise once, single-threaded, before any other call. album does batch work across
/// many images, so it follows the maintainers' advice for that case: parallelism across images in album's
/// scheduler, a small libvips thread pool per image (`concurrency`), and no operation cache.
public enum Vips {
    /// How libvips is set up for a batch run.
    public struct Settings: Sendable {
        /// Threads libvips may use inside one image's pipeline. album runs one pipeline per worker, so 1 is the default.
        public var concurrency: Int = 1
        /// Blocks the loaders libvips marks untrusted (ImageMagick, among others) for the whole process.
        public var blockUntrustedLoaders: Bool = true
        /// glibc malloc arenas. libvips' worker threads each get an arena by default, and memory freed in one is not
        /// reused by another: on 133 real photos with 2 workers, peak RSS fell from 416 MB to 245 MB with 2 arenas
        /// and a fixed 128 KiB mmap threshold (large decode buffers then go straight back to the system). One arena
        /// takes another 6 MB off the 2-worker thumbnail job (316 photos: 175.5 against 181.5 MiB, the same time;
        /// Benchmarks/INVESTIGATION.md section 20): the big buffers are mmapped anyway, so the workers rarely meet
        /// in the arena's lock.
        public var mallocArenas: Int = 1
        public var mmapThresholdBytes: Int = 128 << 10
        /// liborc's run-time generated SIMD code (libvips' vector paths, e.g. the vertical Lanczos3 of every resize).
        /// Debian 12's liborc 0.4.33 crashes when two threads compile and free ORC programs at once, so while it is
        /// on `ProgramLock` holds every operation build and image release under one lock, which removes the crash
        /// (Benchmarks/INVESTIGATION.md, section 7: Benchmarks/orc_race crashed 17 of 20 runs without the lock and
        /// none of 120 with it), and no build computes pixels (`ThumbnailPlan`), so the workers still render in
        /// parallel. Off, libvips runs its C loops: about 10 % slower on a 2-worker thumbnail job (section 14). When
        /// on, libvips' own `VIPS_NOVECTOR` environment variable still switches it off (valgrind needs that).
        public var vectorCode: Bool = true
        public init() {}
    }

    /// Whether the process is prepared (`malloc`, GLib's log), libvips itself is started, and with what settings.
    private struct State {
        var prepared = false
        var started = false
        var settings = Settings()
    }

    private static let state = Mutex(State())
    /// `state.started`, read without the lock by every image made (`started()`).
    private static let running = Atomic<Bool>(false)

    /// Prepares the process for libvips and keeps `settings` for it; libvips itself starts at the first image made
    /// (`started()`), so that a run that decodes nothing (a rerun with every photo up to date) loads none of its
    /// modules: 20 ms of dynamic loading (ImageMagick, Poppler, OpenSlide, libjxl, libheif), a tenth of a no-op rerun
    /// of 10⁴ photos. Safe to call more than once: later calls replace the settings, applied at once when libvips
    /// runs already.
    /// - Throws: nothing now that libvips starts later (`started()` throws when it cannot); kept for the callers that
    ///   start it where a failure is theirs to report.
    public static func start(_ settings: Settings = Settings()) throws {
        state.withLock { state in
            prepare(&state, settings)
            if state.started { apply(settings) }
        }
    }

    /// Starts libvips if it is not running: every function of this module that makes an image from nothing (a file's
    /// bytes, pixels, a generator) calls it first; an image made is proof that libvips runs. Initialised once, under
    /// the lock, as libvips' binding guide asks (once, before any other call).
    /// - Throws: `VipsError` when libvips cannot start (a missing or broken installation).
    static func started() throws {
        if running.load(ordering: .acquiring) { return }
        try state.withLock { state in
            guard !state.started else { return }
            prepare(&state, state.settings)
            guard album_vips_init("album") == 0 else {
                throw VipsError(operation: "vips_init", message: readErrorBuffer())
            }
            state.started = true
            apply(state.settings)
            running.store(true, ordering: .releasing)
        }
    }

    /// What must be set before any thread exists, once: arenas are created per thread on first use; GLib's warnings
    /// (e.g. "unknown EXIF resolution unit") must not reach the terminal, so they are routed first.
    private static func prepare(_ state: inout State, _ settings: Settings) {
        state.settings = settings
        guard !state.prepared else { return }
        album_malloc_tune(Int32(settings.mallocArenas), Int32(settings.mmapThresholdBytes))
        album_vips_set_log_handler(vipsLogHandler)
        state.prepared = true
    }

    /// The settings libvips takes while it runs.
    private static func apply(_ settings: Settings) {
        vips_concurrency_set(Int32(max(1, settings.concurrency)))
        if !settings.vectorCode { album_vips_set_vector_enabled(0) }
        ProgramLock.active.store(settings.vectorCode, ordering: .releasing)
        vips_cache_set_max(0)
        vips_block_untrusted_set(settings.blockUntrustedLoaders ? 1 : 0)
    }

    /// The libvips version, e.g. "8.14.1".
    public static var version: String {
        String(cString: vips_version_string())
    }

    /// Receives libvips' and GLib's warnings. The default drops them; album's log installs its own.
    public static func setWarningHandler(_ handler: @escaping @Sendable (String) -> Void) {
        warningHandler.withLock { $0 = WarningHandler(handler) }
    }

    /// The handler lives in a class box: a closure stored directly in a `Mutex` is re-wrapped in a reabstraction
    /// thunk on every `withLock` access, and the wrappers piled up, one per libvips warning, until a long run spent
    /// its time (and finally its stack) calling through thousands of thunks.
    static let warningHandler = Mutex(WarningHandler { _ in })

    final class WarningHandler: Sendable {
        let call: @Sendable (String) -> Void
        init(_ call: @escaping @Sendable (String) -> Void) { self.call = call }
    }

    /// Copies libvips' process-global error buffer and clears it.
    ///
    /// The buffer is one for the whole process, so messages of two workers failing at once can mix; the lock keeps
    /// each copy-and-clear whole, `Attribution` makes the text of a rendering run alone its own, and every caller adds
    /// its own context (file, operation) to what it copies.
    static func takeErrorBuffer() -> String {
        // Before libvips runs there is no buffer (its lock is made by `vips_init`): nothing to take.
        guard running.load(ordering: .acquiring) else { return "" }
        return readErrorBuffer()
    }

    /// The buffer's text, which is then cleared; `vips_init` made its lock (also when it went on to fail).
    private static func readErrorBuffer() -> String {
        errorLock.withLock { _ in
            let text = String(cString: vips_error_buffer())
            vips_error_clear()
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    private static let errorLock = Mutex<Void>(())
}

/// GLib calls this for every message of the domains routed in `album_vips_set_log_handler`.
private func vipsLogHandler(domain: UnsafePointer<gchar>?, level: GLogLevelFlags, message: UnsafePointer<gchar>?,
                            userData: gpointer?) {
    // libvips' g_info/g_debug chatter ("selected loader is …") is for its own debugging: drop it.
    let serious = G_LOG_LEVEL_ERROR.rawValue | G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue
    guard level.rawValue & serious != 0 else { return }
    let domainText = domain.map { String(cString: $0) } ?? "GLib"
    let text = message.map { String(cString: $0) } ?? ""
    Vips.deliver(domain: domainText, message: text)
}

extension Vips {
    /// Hands one libvips or GLib warning to `Attribution` and to the installed handler.
    static func deliver(domain: String, message: String) {
        Attribution.note(message)
        let handler = warningHandler.withLock { $0 }
        handler.call("\(domain): \(message)")
    }
}
