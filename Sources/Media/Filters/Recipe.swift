import Vips
import Core

/// A look: the filter steps applied, in order, to a photo's original pixels. Empty for the original look.
public struct Recipe: Sendable {
    public var steps: [any FilterPrimitive]

    public init(_ steps: [any FilterPrimitive] = []) { self.steps = steps }

    /// The original look.
    public static let original = Recipe()

    public var isEmpty: Bool { steps.isEmpty }

    /// The canonical JSON of the steps, `[{"sepia":{"amount":0.85}}]`: stored on the photo and hashed.
    public var canonical: JSONValue { .array(steps.map(\.canonical)) }

    /// Applies every step to 8-bit sRGB pixels.
    public func apply(to image: Image) throws -> Image {
        try steps.reduce(image) { try $1.apply(to: $0) }
    }
}

/// A named look a `filter` stage applies: one of the built-in presets or a job's own.
public struct Preset: Sendable {
    public var name: String
    public var recipe: Recipe

    /// The built-in presets' names, in the order `album --help` lists them.
    public static let builtInNames = ["none", "sepia", "noir", "vivid"]

    public init(name: String, recipe: Recipe) {
        self.name = name
        self.recipe = recipe
    }
}
