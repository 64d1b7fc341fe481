/// Anything a `CommandConfiguration` can list among its options: an `Option` of any value type.
package protocol DeclaresOption: Sendable {
    var declaration: OptionDeclaration { get }
}
