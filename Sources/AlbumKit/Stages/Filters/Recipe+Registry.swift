import Foundation

extension Recipe {
    /// Every filter primitive by name, each built from its numeric parameters (missing ones take their defaults).
    /// Registering a new primitive is one line here.
    static let primitives: [String: @Sendable ([String: Double]) -> any FilterPrimitive] = [
        Sepia.name: { Sepia(amount: $0["amount"] ?? Sepia().amount) },
        Noir.name: { Noir(contrast: $0["contrast"] ?? Noir().contrast) },
        Vivid.name: { Vivid(amount: $0["amount"] ?? Vivid().amount) },
    ]

    /// Rebuilds a recipe from its canonical JSON, as stored on a photo (`[{"sepia":{"amount":0.85}}]`).
    /// - Throws: `StageError` when the JSON names a primitive this album does not know (a newer album wrote it).
    public init(canonicalJSON text: String) throws {
        guard let steps = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw StageError("the stored filter recipe \(text) is not valid")
        }
        self.init(try steps.map { step in
            guard step.count == 1, let (name, value) = step.first, let make = Recipe.primitives[name] else {
                throw StageError("the stored filter recipe \(text) uses a filter this album does not know")
            }
            let parameters = (value as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.doubleValue }
            return make(parameters)
        })
    }
}
