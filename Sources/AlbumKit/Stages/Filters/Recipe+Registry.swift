import Foundation

extension Recipe {
    /// Every filter primitive by name, each built from its parameters (missing ones take their defaults).
    /// Registering a new primitive is one line here (and its parameters' ranges in `FilterSpec.all`).
    static let primitives: [String: @Sendable (FilterArguments) -> any FilterPrimitive] = [
        Sepia.name: { Sepia(amount: $0.number("amount") ?? Sepia().amount) },
        Noir.name: { Noir(contrast: $0.number("contrast") ?? Noir().contrast) },
        Vivid.name: { Vivid(amount: $0.number("amount") ?? Vivid().amount) },
        Grayscale.name: { Grayscale(amount: $0.number("amount") ?? Grayscale().amount) },
        Saturation.name: { Saturation(amount: $0.number("amount") ?? Saturation().amount) },
        Brightness.name: { Brightness(amount: $0.number("amount") ?? Brightness().amount) },
        Contrast.name: { Contrast(amount: $0.number("amount") ?? Contrast().amount) },
        Gamma.name: { Gamma(gamma: $0.number("gamma") ?? Gamma().gamma) },
        Tint.name: { Tint(colour: $0.colour("colour") ?? Tint().colour, amount: $0.number("amount") ?? Tint().amount) },
        Vignette.name: { Vignette(amount: $0.number("amount") ?? Vignette().amount) },
        Grain.name: { Grain(amount: $0.number("amount") ?? Grain().amount, seed: $0.integer("seed") ?? Grain().seed) },
        Sharpen.name: { Sharpen(sigma: $0.number("sigma") ?? Sharpen().sigma) },
        Blur.name: { Blur(sigma: $0.number("sigma") ?? Blur().sigma) },
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
            let parameters = (value as? [String: Any] ?? [:]).compactMapValues { value -> FilterArguments.Value? in
                if let text = value as? String { return RGBColour(hex: text).map(FilterArguments.Value.colour) }
                return (value as? NSNumber).map { .number($0.doubleValue) }
            }
            return make(FilterArguments(parameters))
        })
    }
}
