/// Where a photo stands in its life, computed from facts each time it is asked for, never stored
/// (docs/catalogue.md "A photo's life"). One photo has one state; the first that holds, in this order, wins.
public enum PhotoState: String, CaseIterable, Sendable, Comparable {
    /// A newer version of the same path was imported: the photo keeps its row and renditions until `album prune`,
    /// and never joins a run.
    case superseded
    /// The original is gone from its path.
    case missing
    /// The original's bytes differ from the recorded hash, and no run has imported the new bytes yet.
    case changed
    /// Its pixels could not be decoded (the reason is kept); not retried until its bytes change, or `--retry-damaged`.
    case damaged
    case ok

    public static func < (lhs: PhotoState, rhs: PhotoState) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// "ok", "damaged", "missing", "changed", "superseded": the words `album ls --state` takes, in this order.
    public static let names = [ok, damaged, missing, changed, superseded].map(\.rawValue)
}

/// A photo's state and, for `damaged`, the reason the run that met the damage gave.
public struct PhotoCondition: Sendable, Equatable {
    public var state: PhotoState
    /// Why, for a state that has a reason (`damaged`: the decoder's words); nil otherwise.
    public var reason: String?

    public init(_ state: PhotoState, reason: String? = nil) {
        self.state = state
        self.reason = reason
    }

    public static let ok = PhotoCondition(.ok)
}
