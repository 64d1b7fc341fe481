import Vips

/// One step of a look: a pure function from 8-bit sRGB pixels to 8-bit sRGB pixels, with canonical parameters.
///
/// Primitives are value types with their defaults written out; `parameters` is what provenance records and
/// hashes. Adding one is one new file plus one line in `Recipe.primitives`.
public protocol FilterPrimitive: Sendable {
    /// The name used in job files and provenance, e.g. "sepia".
    static var name: String { get }
    /// Every parameter with its value, defaults included, in a fixed order.
    var parameters: [(String, JSONValue)] { get }
    /// Applies the step. `image` is 8-bit sRGB with 3 bands, or 4 with alpha; the result is the same shape.
    func apply(to image: Image) throws -> Image
}

extension FilterPrimitive {
    /// `{"name": {parameters}}`, the canonical form of this step.
    public var canonical: JSONValue { .object([(Self.name, .object(parameters))]) }
}
