/// Anything a `CommandConfiguration` can list among its options: an `Option` of any value type.
protocol DeclaresOption: Sendable {
    var declaration: OptionDeclaration { get }
}
