/// Makes a command from its parsed arguments, as swift-argument-parser's `ArgumentDecoder` does: the command's
/// `Decodable` conformance, synthesized from its stored wrappers, asks for each property by name, and gets the
/// wrapper its declaration (found by `Command+Declarations`) makes holding the value read from the arguments.
///
/// A stored property that is no wrapper (`var output = RunOutput()`) is not `Decodable` and does not compile, so
/// a command keeps what it derives from its options in computed properties.
struct ArgumentDecoder: Decoder {
    let arguments: Arguments
    /// The command's wrappers, by property name (`catalogue` for `@Option(…) var catalogue`), as `init()` made them.
    let properties: [String: any ParsedProperty]

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Properties<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ArgumentDecoder.unsupported }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw ArgumentDecoder.unsupported }

    private static let unsupported = DecodingError.typeMismatch(
        Any.self, .init(codingPath: [], debugDescription: "a command is made from its stored wrappers alone"))

    /// The command's properties: each one its wrapper with the parsed value.
    private struct Properties<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: ArgumentDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { decoder.properties.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { decoder.properties[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            // Every stored property of a command is a wrapper, and each is found under its own name: a property
            // found by neither is a bug in album's declarations, which CommandLineTests parses for every command.
            guard let property = decoder.properties[key.stringValue],
                  let parsed = try property.parsed(from: decoder.arguments) as? T else {
                fatalError("\(key.stringValue) is a stored property of a command but not an @Option, @Flag or @Positionals")
            }
            return parsed
        }

        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
            throw ArgumentDecoder.unsupported
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw ArgumentDecoder.unsupported }
        func superDecoder() throws -> any Decoder { throw ArgumentDecoder.unsupported }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw ArgumentDecoder.unsupported }
    }
}
