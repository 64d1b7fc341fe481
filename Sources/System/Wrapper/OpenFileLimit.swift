import Glibc

/// The process's open-file limit (`ulimit -n`, `RLIMIT_NOFILE`) and the descriptors open now.
///
/// A descriptor is a number below the soft limit; once none is free, every `open`, `pipe` or `eventfd` fails with
/// `EMFILE`. album's own calls turn that into an error, but libdispatch creates its epoll, eventfd and timerfd
/// descriptors lazily, on a worker thread, and stops the process (SIGILL) when it cannot: so a run asks for its
/// descriptors up front (`ensure`), never meets the limit mid-run.
public enum OpenFileLimit {
    /// The soft and hard limits; nil for none (`rlim_t.max`).
    public static var current: (soft: Int?, hard: Int?) {
        var value = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &value) == 0 else { return (nil, nil) }
        return (limitValue(value.rlim_cur), limitValue(value.rlim_max))
    }

    /// The descriptors open now (the entries of `/proc/self/fd`, less the one that lists them), or nil when they
    /// cannot be listed.
    public static var openNow: Int? {
        let listing = Directory.entries(of: "/proc/self/fd")
        guard listing.failure == nil else { return nil }
        return max(0, listing.names.count - 1)
    }

    /// What `ensure` found.
    public enum Outcome: Sendable, Equatable {
        /// The soft limit was enough already (nil: no limit).
        case enough(soft: Int?)
        /// The soft limit was below `need` and is now the hard limit, which is enough.
        case raised(from: Int, to: Int?)
        /// Even the hard limit is below `need`: the soft limit is left as it was.
        case tooLow(soft: Int, hard: Int)
    }

    /// Makes the soft limit at least `need`: left alone when it is, else raised to the hard limit when that is
    /// enough (as many tools do, the soft limit being a default the hard limit lets any process raise).
    /// - Throws: `SystemError` ("setrlimit") when the raise itself fails.
    public static func ensure(_ need: Int) throws(SystemError) -> Outcome {
        var value = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &value) == 0 else { throw .last("getrlimit") }
        if value.rlim_cur == rlim_t.max || value.rlim_cur >= rlim_t(need) { return .enough(soft: limitValue(value.rlim_cur)) }
        let soft = Int(clamping: value.rlim_cur)
        guard value.rlim_max == rlim_t.max || value.rlim_max >= rlim_t(need) else {
            return .tooLow(soft: soft, hard: Int(clamping: value.rlim_max))
        }
        // A hard limit of "unlimited" is one setrlimit refuses as a soft limit (the kernel's nr_open caps it).
        value.rlim_cur = value.rlim_max == rlim_t.max ? rlim_t(need) : value.rlim_max
        guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &value) == 0 else { throw .last("setrlimit") }
        return .raised(from: soft, to: limitValue(value.rlim_cur))
    }

    private static func limitValue(_ raw: rlim_t) -> Int? { raw == rlim_t.max ? nil : Int(clamping: raw) }
}
