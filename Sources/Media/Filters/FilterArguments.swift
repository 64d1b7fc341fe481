/// The parameters one filter step was given, by name: numbers, or colours (`#rrggbb`).
///
/// A job file's step (`{tint: {colour: "#704214", amount: 0.4}}`) and a stored recipe's JSON both become these;
/// the primitive's `spec` reads them and fills in its defaults for the missing ones.
public struct FilterArguments: Sendable {
    /// One parameter's value.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case colour(RGBColour)
    }

    public var values: [String: Value]

    public init(_ values: [String: Value] = [:]) { self.values = values }
}
