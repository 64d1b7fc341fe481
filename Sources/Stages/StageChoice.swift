/// A stage option that takes one of an enumeration's raw values, with the enumeration's type erased so that one
/// table holds options of different enumerations.
public struct StageChoice<Stage>: Sendable {
    /// Every raw value, in the enumeration's order: what the job file's error message lists.
    public let all: [String]
    /// The raw values this option accepts (a subset of `all` when `only` was given, in its order).
    public let allowed: [String]
    /// A value the parameters record by leaving the key out, so that parameters hashed before the option existed
    /// still describe the stage that takes it (the filter stage's `keep: none`, what every older filter stage did
    /// for the look); nil: every value is recorded.
    public let unrecorded: String?
    package let get: @Sendable (Stage) -> String
    package let set: @Sendable (inout Stage, String) -> Void

    package init<E: RawRepresentable & CaseIterable & Sendable>(_ path: WritableKeyPath<Stage, E> & Sendable, only: [E]?,
                                                        unrecorded: E? = nil)
    where E.RawValue == String {
        all = E.allCases.map(\.rawValue)
        allowed = (only ?? Array(E.allCases)).map(\.rawValue)
        self.unrecorded = unrecorded?.rawValue
        get = { $0[keyPath: path].rawValue }
        set = { stage, text in
            if let value = E(rawValue: text) { stage[keyPath: path] = value }
        }
    }

    /// The stage's value.
    public func value(of stage: Stage) -> String { get(stage) }

    /// Sets the stage's value from a raw value in `allowed`.
    public func assign(_ raw: String, to stage: inout Stage) { set(&stage, raw) }
}
