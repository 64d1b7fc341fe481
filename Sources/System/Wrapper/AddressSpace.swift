import Foundation

/// The process's virtual address space: its limit (`ulimit -v`, `RLIMIT_AS`) and how much of it is mapped now.
///
/// Under an address-space limit a failed allocation is an `mmap` that returns `ENOMEM`, however little memory is
/// in use: every mapping counts, touched or not. What album maps, measured on Debian 12 (libvips 8.14, glibc 2.36):
/// - about 190 MB of shared libraries and their data before the first photo (libvips loads every format's module);
/// - one thread stack per thread, `threadStackBytes` each (glibc's default: the `RLIMIT_STACK` soft limit, 8 MB);
///   a worker runs on a Dispatch thread and its pipeline on libvips threads, about 3 threads per worker;
/// - 64 MB reserved by each glibc malloc arena beyond the main one (`HEAP_MAX_SIZE` on 64-bit systems);
/// - the decoded pixels and encoded files in flight: with album's 128 KiB mmap threshold, each large buffer is its
///   own mapping, released when freed.
public enum AddressSpace {
    /// The soft `RLIMIT_AS` in bytes, or nil when there is none (`RLIM_INFINITY`, all bits set).
    public static var limit: Int? {
        var value = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &value) == 0, value.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: value.rlim_cur)
    }

    /// The bytes mapped now (`VmSize`, the first field of `/proc/self/statm`, in pages), or nil when it cannot be read.
    public static var inUse: Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").first.flatMap({ Int($0) }) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The stack a new thread gets when its creator does not choose one: glibc's default thread attributes.
    public static var threadStackBytes: Int {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return 8 << 20 }
        defer { pthread_attr_destroy(&attributes) }
        var size = 0
        guard pthread_attr_getstacksize(&attributes, &size) == 0, size > 0 else { return 8 << 20 }
        return size
    }

    /// "512 MB": bytes in whole mebibytes, as `ulimit -v` counts them (in KiB) divided by 1024.
    public static func megabytes(_ bytes: Int) -> String { "\(bytes >> 20) MB" }

    /// The limit for a message: "the address-space limit (ulimit -v) is 512 MB", or nil when there is none.
    public static var limitDescription: String? {
        limit.map { "the address-space limit (ulimit -v) is \(megabytes($0))" }
    }
}
