import Vips
import Core

/// One step of a look: a pure function from 8-bit sRGB pixels to 8-bit sRGB pixels, with canonical parameters.
///
/// Primitives are value types with their defaults written out on their properties; `spec` names the parameters and
/// their ranges once, and `parameters` (what provenance records and hashes) is read from it. Adding one is one new
/// file plus one line in `Recipe.registered`.
public protocol FilterPrimitive: Sendable {
    /// The name and every parameter: the primitive's one declaration.
    static var spec: FilterSpec<Self> { get }
    /// Applies the step. `image` is 8-bit sRGB with 3 bands, or 4 with alpha; the result is the same shape.
    func apply(to image: Image) throws -> Image
}

extension FilterPrimitive {
    /// The name used in job files and provenance, e.g. "sepia".
    public static var name: String { spec.name }
    /// Every parameter, the main one first, as the job file and the docs see them.
    public static var declaredParameters: [FilterParameter] { spec.parameters }
    /// The main parameter, the one the short form `{sepia: 0.3}` sets.
    public static var mainParameter: FilterParameter { spec.main }
    /// The step with `arguments` set and the rest at their defaults.
    public static func make(_ arguments: FilterArguments) -> any FilterPrimitive { spec.make(arguments) }

    /// Every parameter with its value, defaults included, in a fixed order.
    public var parameters: [(String, JSONValue)] { Self.spec.parameters(of: self) }
    /// `{"name": {parameters}}`, the canonical form of this step.
    public var canonical: JSONValue { .object([(Self.name, .object(parameters))]) }
}
