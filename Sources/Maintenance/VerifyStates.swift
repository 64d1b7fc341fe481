import Core

/// What `album verify` met that is a photo's state rather than a problem (`Verifier.verifyWithStates`): counted,
/// listed on one line, never a reason to exit 1.
public struct VerifyStates: Sendable, Equatable {
    /// Earlier versions of an edited file: their originals are not checked.
    public var superseded = 0
    /// Originals that are gone, kept by `album prune --keep-missing`.
    public var missingKept = 0
    /// Originals that are gone from a photo whose catalogue keeps its own copy (`mode: copy`, the copy checked).
    public var missing = 0
    /// Originals edited since their import (stat and bytes differ): the next run imports them.
    public var changed = 0
    /// Photos whose pixels a run could not decode (their recorded bytes, checked as usual).
    public var damaged = 0

    public init() {}

    /// "states: 1 superseded, 1 missing (kept)", or nil when there is none.
    public var line: String? {
        let parts = [(superseded, "superseded"), (missingKept, "missing (kept)"), (missing, "missing (the catalogue keeps a copy)"),
                     (changed, "changed"), (damaged, "damaged")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? nil : "states: " + parts.joined(separator: ", ")
    }

    /// `{"superseded":n,"missing_kept":n,"missing":n,"changed":n,"damaged":n}`.
    public var json: JSONValue {
        .object([("superseded", .int(superseded)), ("missing_kept", .int(missingKept)), ("missing", .int(missing)),
                 ("changed", .int(changed)), ("damaged", .int(damaged))])
    }
}
