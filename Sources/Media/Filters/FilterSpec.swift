import Vips
import Core

/// A filter primitive's declaration: its name and every parameter, bound to the property that holds it, in the
/// order of its canonical JSON. The first parameter is the main one, the one the short form `{sepia: 0.3}` sets.
///
/// Like libvips' `VIPS_ARG_DOUBLE(class, "amount", …, 0, 1, 0.85)`, this is the only place a parameter's name and
/// range are written; its default is the property's own (`public var amount = 0.85`). Job-file checking, the
/// canonical JSON, rebuilding a stored recipe and the docs' tables all read it:
/// ```
/// public static let spec = FilterSpec(Tint(), "tint", .colour("colour", \.colour), .number("amount", \.amount, in: 0...1))
/// ```
public struct FilterSpec<Primitive: FilterPrimitive>: Sendable {
    /// One parameter bound to the primitive's property.
    public struct Binding: Sendable {
        package let name: String
        package let kind: FilterParameter.Kind
        package let value: @Sendable (Primitive) -> FilterArguments.Value
        package let assign: @Sendable (inout Primitive, FilterArguments.Value) -> Void

        /// A number within `range`.
        public static func number(_ name: String, _ path: WritableKeyPath<Primitive, Double> & Sendable,
                                  in range: ClosedRange<Double>) -> Binding {
            Binding(name, .number(range), path, get: { .number($0) }, set: { value in
                if case .number(let number) = value { return number }
                return nil
            })
        }

        /// A whole number within `range`: a stored value that is not whole keeps the default.
        public static func integer(_ name: String, _ path: WritableKeyPath<Primitive, Int> & Sendable,
                                   in range: ClosedRange<Int>) -> Binding {
            Binding(name, .integer(range), path, get: { .number(Double($0)) }, set: { value in
                guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e15 else { return nil }
                return Int(number)
            })
        }

        /// A colour, `#rrggbb`.
        public static func colour(_ name: String, _ path: WritableKeyPath<Primitive, RGBColour> & Sendable) -> Binding {
            Binding(name, .colour, path, get: { .colour($0) }, set: { value in
                if case .colour(let colour) = value { return colour }
                return nil
            })
        }

        private init<Value>(_ name: String, _ kind: FilterParameter.Kind, _ path: WritableKeyPath<Primitive, Value> & Sendable,
                            get: @escaping @Sendable (Value) -> FilterArguments.Value,
                            set: @escaping @Sendable (FilterArguments.Value) -> Value?) {
            self.name = name
            self.kind = kind
            value = { get($0[keyPath: path]) }
            assign = { primitive, value in
                if let typed = set(value) { primitive[keyPath: path] = typed }
            }
        }
    }

    /// The name used in job files and provenance, e.g. "sepia".
    public let name: String
    /// The primitive with every parameter at its default, as its properties write them.
    public let defaults: Primitive
    /// The main parameter: the one the short form `{sepia: 0.3}` sets.
    public let main: FilterParameter
    /// Every parameter, the main one first, in canonical order.
    public let parameters: [FilterParameter]
    private let bindings: [Binding]

    /// `defaults` is `Primitive()`, whose properties hold the defaults; `main` and `more` bind the parameters.
    public init(_ defaults: Primitive, _ name: String, _ main: Binding, _ more: Binding...) {
        self.name = name
        self.defaults = defaults
        self.bindings = [main] + more
        self.parameters = bindings.map { FilterParameter(name: $0.name, kind: $0.kind, defaultValue: $0.value(defaults)) }
        self.main = parameters[0]
    }

    /// The primitive with `arguments` set and every parameter they leave out at its default.
    public func make(_ arguments: FilterArguments) -> Primitive {
        var primitive = defaults
        for binding in bindings {
            if let value = arguments.values[binding.name] { binding.assign(&primitive, value) }
        }
        return primitive
    }

    /// Every parameter with `primitive`'s value, in canonical order.
    public func parameters(of primitive: Primitive) -> [(String, JSONValue)] {
        zip(bindings, parameters).map { binding, parameter in (parameter.name, parameter.canonical(binding.value(primitive))) }
    }
}
