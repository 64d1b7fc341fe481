/// Anything that declares an option of a command: an `Option` of any value type.
protocol DeclaresOption: Sendable {
    var declaration: OptionDeclaration { get }
}

/// A property wrapper a command stores and the parser fills (`Option`, `Positionals`): found on the command by
/// reflection (`Command+Declarations`), then made again holding its value (`ArgumentDecoder`).
protocol ParsedProperty: Sendable, Decodable {
    /// The same wrapper, holding the value read from `arguments`.
    /// - Throws: `UsageError` when the given text is not a value the option takes.
    func parsed(from arguments: Arguments) throws -> Self
}

extension ParsedProperty {
    /// Only `ArgumentDecoder` makes a parsed wrapper, and it never asks a wrapper to decode itself: this exists so
    /// that a command's `Decodable` conformance is synthesized from its stored wrappers.
    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                debugDescription: "a command's options are read by Command.parse alone"))
    }
}
