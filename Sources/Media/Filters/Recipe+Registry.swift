import Foundation
import Core

extension Recipe {
    /// Every filter primitive album knows, one line each: the only list of them. Their names, parameters, ranges
    /// and defaults come from each one's `spec`.
    package static let registered: [any FilterPrimitive.Type] = [
        Sepia.self,
        Noir.self,
        Vivid.self,
        Grayscale.self,
        Saturation.self,
        Brightness.self,
        Contrast.self,
        Gamma.self,
        Tint.self,
        Vignette.self,
        Grain.self,
        Sharpen.self,
        Blur.self,
    ]

    /// The registered primitives by name (`FilterPrimitiveTests` checks that no two share one).
    package static let primitives: [String: any FilterPrimitive.Type] =
        Dictionary(registered.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// The canonical JSON of `original`.
    static let originalText = Recipe.original.canonical.text

    /// Rebuilds a recipe from its canonical JSON, as stored on a photo (`[{"sepia":{"amount":0.85}}]`).
    /// - Throws: `StageError` when the JSON names a primitive this album does not know (a newer album wrote it).
    public init(canonicalJSON text: String) throws {
        // The original look, most photos' own, is known without parsing JSON (a no-op rerun asks it per photo).
        if text == Recipe.originalText {
            self = .original
            return
        }
        guard let steps = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw StageError("the stored filter recipe \(text) is not valid")
        }
        self.init(try steps.map { step in
            guard step.count == 1, let (name, value) = step.first, let primitive = Recipe.primitives[name] else {
                throw StageError("the stored filter recipe \(text) uses a filter this album does not know")
            }
            let parameters = (value as? [String: Any] ?? [:]).compactMapValues { value -> FilterArguments.Value? in
                if let text = value as? String { return RGBColour(hex: text).map(FilterArguments.Value.colour) }
                return (value as? NSNumber).map { .number($0.doubleValue) }
            }
            return primitive.make(FilterArguments(parameters))
        })
    }
}
