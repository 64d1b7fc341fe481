/// The parameters one filter step was given, by name: numbers, or colours (`#rrggbb`).
///
/// A job file's step (`{tint: {colour: "#704214", amount: 0.4}}`) and a stored recipe's JSON both become these;
/// a primitive's registration line reads them and fills in its defaults for the missing ones.
public struct FilterArguments: Sendable {
    /// One parameter's value.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case colour(RGBColour)
    }

    public var values: [String: Value]

    public init(_ values: [String: Value] = [:]) { self.values = values }

    /// The number named `name`, or nil when it is absent or not a number.
    public func number(_ name: String) -> Double? {
        if case .number(let value)? = values[name] { return value }
        return nil
    }

    /// The whole number named `name` (e.g. a seed), or nil when it is absent, not a number or out of `Int` range.
    public func integer(_ name: String) -> Int? {
        guard let value = number(name), value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// The colour named `name`, or nil when it is absent or not a colour.
    public func colour(_ name: String) -> RGBColour? {
        if case .colour(let value)? = values[name] { return value }
        return nil
    }
}
