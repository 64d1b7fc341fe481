internal import CXML

/// An XML document read by libxml2, as a tree of Swift values: elements with their namespace URIs, attributes and
/// text. The only Swift that sees libxml2.
///
/// Every parse is closed to the outside: no network (`XML_PARSE_NONET`), no external entity or DTD loaded (the
/// external entity loader refuses everything), no entity substitution (never `XML_PARSE_NOENT`), libxml2's limits
/// on depth and expansion kept (never `XML_PARSE_HUGE`), and a document that declares a DTD is refused: XMP has
/// none, and a DTD is where XXE and billion laughs live.
public enum XMLTree {
    /// One element: its namespace URI and local name, attributes, child elements, own text, and line.
    public struct Element: Sendable, Equatable {
        /// The namespace URI (`http://purl.org/dc/elements/1.1/`), nil for none.
        public var namespace: String?
        /// The local name, without its prefix (`subject` for `dc:subject`).
        public var name: String
        public var attributes: [Attribute]
        public var children: [Element]
        /// The element's own text and CDATA, in order (not its children's).
        public var text: String
        /// Its line in the document, from 1.
        public var line: Int

        /// The value of the attribute `name` in `namespace`, if present.
        public func attribute(_ namespace: String?, _ name: String) -> String? {
            attributes.first { $0.namespace == namespace && $0.name == name }?.value
        }

        /// Whether this is `name` in `namespace`.
        public func isNamed(_ namespace: String, _ name: String) -> Bool {
            self.namespace == namespace && self.name == name
        }
    }

    /// One attribute: namespace URI (nil for an unprefixed attribute), local name, value.
    public struct Attribute: Sendable, Equatable {
        public var namespace: String?
        public var name: String
        public var value: String
    }

    /// libxml2 set up once, before the first parse (its rule for threaded programs), with the loader that refuses
    /// every external entity.
    private static let started: Bool = {
        album_xml_start()
        return true
    }()

    /// The options of every parse: no network (`NONET`), errors kept instead of printed (`NOERROR`, `NOWARNING`),
    /// line numbers past 65535 (`BIG_LINES`). Never `NOENT` (entities substituted), `DTDLOAD`, `DTDATTR`, `DTDVALID`,
    /// `XINCLUDE` or `HUGE` (libxml2's limits on depth, text and entity expansion lifted): XMP needs none, and each
    /// opens a door to XXE or billion laughs.
    static let options = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                                            | XML_PARSE_BIG_LINES.rawValue)

    /// The document's root element.
    /// - Throws: `XMLError` with libxml2's own message and line when the bytes are not well-formed XML, when the
    ///   document declares a DTD, or when it is empty.
    public static func parse(_ bytes: [UInt8]) throws -> Element {
        precondition(started)  // always true: evaluating it sets libxml2 up once
        guard !bytes.isEmpty else { throw XMLError(message: "the file is empty", line: nil) }
        guard bytes.count < Int(Int32.max) else { throw XMLError(message: "it is over 2 GB", line: nil) }
        guard let context = xmlNewParserCtxt() else { throw XMLError(message: "libxml2 could not allocate a parser", line: nil) }
        defer { xmlFreeParserCtxt(context) }
        var first = album_xml_error()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                album_xml_read(context, chars.baseAddress, Int32(chars.count), options, &first)
            }
        }
        guard let document = parsed, context.pointee.wellFormed != 0 else {
            if let parsed { xmlFreeDoc(parsed) }
            throw first.set != 0 ? XMLTree.error(first) : lastError(of: context)
        }
        defer { xmlFreeDoc(document) }
        if document.pointee.intSubset != nil || document.pointee.extSubset != nil {
            throw XMLError(message: "it declares a DTD (<!DOCTYPE>), which XMP never has: album reads none, and expands no entity",
                           line: nil, wellFormed: true)
        }
        guard let root = xmlDocGetRootElement(document) else { throw XMLError(message: "it has no root element", line: nil) }
        return element(root)
    }

    /// The first error libxml2 raised: its message and line.
    private static func error(_ first: album_xml_error) -> XMLError {
        let message = withUnsafeBytes(of: first.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }.trimmingWhitespace
        return XMLError(message: message.isEmpty ? "libxml2 could not parse it" : message,
                        line: first.line > 0 ? Int(first.line) : nil)
    }

    /// The error libxml2 recorded on the parser: its message and line.
    private static func lastError(of context: xmlParserCtxtPtr) -> XMLError {
        guard let error = xmlCtxtGetLastError(UnsafeMutableRawPointer(context)), let message = error.pointee.message else {
            return XMLError(message: "libxml2 could not parse it and gave no reason", line: nil)
        }
        let text = String(cString: message).trimmingWhitespace
        let line = Int(error.pointee.line)
        return XMLError(message: text.isEmpty ? "libxml2 could not parse it" : text, line: line > 0 ? line : nil)
    }

    private static func element(_ node: xmlNodePtr) -> Element {
        var attributes: [Attribute] = []
        var property = node.pointee.properties
        while let attribute = property {
            attributes.append(Attribute(namespace: attribute.pointee.ns.flatMap { $0.pointee.href.map(text) },
                                        name: attribute.pointee.name.map(text) ?? "",
                                        value: contents(attribute.pointee.children)))
            property = attribute.pointee.next
        }
        var children: [Element] = []
        var own = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: children.append(element(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: own += content(of: current)
            default: break  // comments, processing instructions (`<?xpacket?>`), entity references: not text
            }
            child = current.pointee.next
        }
        return Element(namespace: node.pointee.ns.flatMap { $0.pointee.href.map(text) },
                       name: node.pointee.name.map(text) ?? "", attributes: attributes, children: children,
                       text: own, line: Int(xmlGetLineNo(node)))
    }

    /// The text of a list of text nodes (an attribute's value).
    private static func contents(_ first: xmlNodePtr?) -> String {
        var result = ""
        var node = first
        while let current = node {
            if current.pointee.type == XML_TEXT_NODE { result += content(of: current) }
            node = current.pointee.next
        }
        return result
    }

    private static func text(_ chars: UnsafePointer<xmlChar>) -> String {
        String(cString: chars)
    }

    /// A text or CDATA node's text ("" when libxml2 holds none).
    private static func content(of node: xmlNodePtr) -> String {
        let held: UnsafeMutablePointer<xmlChar>? = node.pointee.content
        guard let chars = held else { return "" }
        return String(cString: chars)
    }
}

/// Why a document could not be read: libxml2's own message, and the line it names when it names one.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var line: Int?
    /// true for a well-formed document album refuses (one that declares a DTD); false when libxml2 could not parse it.
    public var wellFormed: Bool

    public init(message: String, line: Int?, wellFormed: Bool = false) {
        self.message = message
        self.line = line
        self.wellFormed = wellFormed
    }

    /// "line 4: Opening and ending tag mismatch: Bag line 3 and Description".
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines (libxml2's messages end in a newline).
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        return String(self.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
