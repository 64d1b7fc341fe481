/// What album reads from an XMP packet (a sidecar `.xmp` file, or the `xmp-data` a photo carries), by namespace and
/// in every RDF form writers use: a property as an attribute of `rdf:Description` or as an element, a list as
/// `rdf:Bag`/`rdf:Seq` of `rdf:li`, a language alternative as `rdf:Alt` (the `x-default` one first).
///
/// ```
/// let packet = try XMPPacket(parsing: bytes)
/// packet.rating          // 4, from xmp:Rating="4" or <xmp:Rating>4</xmp:Rating>
/// packet.keywords        // ["beach", "sunset"], from dc:subject's rdf:Bag
/// packet.hierarchicalKeywords  // ["Places|Europe|Paris"], from lr:hierarchicalSubject
/// ```
public struct XMPPacket: Sendable, Equatable {
    /// `xmp:Rating`, −1 (rejected) to 5; nil when absent or out of range (`notes` says so).
    public var rating: Int?
    /// `xmp:Label`, e.g. "Red".
    public var label: String?
    /// `dc:subject`, in order, each once.
    public var keywords: [String] = []
    /// `lr:hierarchicalSubject`, paths with `|` between levels ("Places|Europe|Paris").
    public var hierarchicalKeywords: [String] = []
    /// `dc:title` (the `x-default` alternative, else the first).
    public var title: String?
    /// `dc:description`, likewise.
    public var description: String?
    /// The capture time: `exif:DateTimeOriginal`, else `xmp:CreateDate`, else `photoshop:DateCreated`, as
    /// ISO-8601 the way album stores EXIF's ("2008-04-20T19:12:06", with "+02:00" when the packet gives an offset).
    public var taken: String?
    /// Where the movie of a Motion Photo lies, when the packet marks the file as one (`GCamera:MicroVideo`, or
    /// `Camera:MotionPhoto` with its `Container:Directory`; `XMPMotion`). A marker that places nothing is a note.
    public var motion: XMPMotion? = nil
    /// Why a Motion Photo marker places no movie, in words ("GCamera:MicroVideoOffset is missing"); nil when there is
    /// no marker or it places one. Kept apart from `notes`: only a photo's own packet describes its bytes.
    public var motionProblem: String? = nil
    /// Values present but unusable, in words: "xmp:Rating '9' is not a rating from -1 to 5".
    public var notes: [String] = []

    /// Reads a packet: XML through libxml2 (`XMLTree`), then its `rdf:RDF`.
    /// - Throws: `XMPError` when the bytes are not well-formed XML (libxml2's message and line), or are XML with
    ///   no `rdf:RDF` (not XMP).
    public init(parsing bytes: [UInt8]) throws {
        let root: XMLTree.Element
        do { root = try XMLTree.parse(bytes) } catch let error as XMLError {
            throw XMPError(reason: error.wellFormed ? "\(error)" : "it is not well-formed XML: \(error)")
        }
        guard let rdf = XMPPacket.first(in: root, where: { $0.isNamed(XMPNamespace.rdf, "RDF") }) else {
            throw XMPError(reason: "it is XML but not XMP: it has no rdf:RDF element (its root is <\(root.name)>)")
        }
        let properties = XMPPacket.properties(of: rdf)
        self.init(properties: properties)
        let (motion, note) = XMPPacket.motion(properties, rdf: rdf)
        self.motion = motion
        motionProblem = note
    }

    /// The facts from the properties found.
    init(properties: [XMPProperty]) {
        func values(_ namespace: String, _ name: String) -> [XMPProperty.Value]? {
            properties.first { $0.namespace == namespace && $0.name == name }?.values
        }
        func single(_ namespace: String, _ name: String) -> String? {
            guard let found = values(namespace, name) else { return nil }
            // An `rdf:Alt`: the `x-default` language first, then the first written.
            let chosen = found.first { $0.language?.lowercased() == "x-default" } ?? found.first
            return chosen.map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        }
        func list(_ namespace: String, _ name: String) -> [String] {
            var seen: Set<String> = []
            return (values(namespace, name) ?? []).map(\.text).filter { !$0.isEmpty && seen.insert($0).inserted }
        }
        if let text = single(XMPNamespace.xmp, "Rating") {
            if let number = Double(text), number == number.rounded(), (-1...5).contains(number) {
                rating = Int(number)
            } else {
                notes.append("xmp:Rating '\(text)' is not a rating from -1 to 5")
            }
        }
        label = single(XMPNamespace.xmp, "Label")
        keywords = list(XMPNamespace.dc, "subject")
        hierarchicalKeywords = list(XMPNamespace.lightroom, "hierarchicalSubject")
        title = single(XMPNamespace.dc, "title")
        description = single(XMPNamespace.dc, "description")
        for (namespace, name, shown) in [(XMPNamespace.exif, "DateTimeOriginal", "exif:DateTimeOriginal"),
                                         (XMPNamespace.xmp, "CreateDate", "xmp:CreateDate"),
                                         (XMPNamespace.photoshop, "DateCreated", "photoshop:DateCreated")] {
            guard let text = single(namespace, name) else { continue }
            if let date = XMPDate.iso(text) {
                taken = date
                break
            }
            notes.append("\(shown) '\(text)' is not a date")
        }
    }

    /// Every property of every `rdf:Description` under `rdf`, the first written of each name kept.
    static func properties(of rdf: XMLTree.Element) -> [XMPProperty] {
        var found: [XMPProperty] = []
        func add(_ property: XMPProperty) {
            if !found.contains(where: { $0.namespace == property.namespace && $0.name == property.name }) { found.append(property) }
        }
        for description in rdf.children where description.isNamed(XMPNamespace.rdf, "Description") {
            for attribute in description.attributes {
                guard let namespace = attribute.namespace, namespace != XMPNamespace.rdf, namespace != XMPNamespace.xml else { continue }
                add(XMPProperty(namespace: namespace, name: attribute.name,
                                values: [.init(language: nil, text: attribute.value.trimmingWhitespace)]))
            }
            for element in description.children {
                guard let namespace = element.namespace, let values = XMPPacket.values(of: element) else { continue }
                add(XMPProperty(namespace: namespace, name: element.name, values: values))
            }
        }
        return found
    }

    /// A property element's values: the `rdf:li` of its `rdf:Bag`, `rdf:Seq` or `rdf:Alt`, or its own text; nil for
    /// a structure or a resource, which album reads nothing from.
    static func values(of element: XMLTree.Element) -> [XMPProperty.Value]? {
        let language = { (item: XMLTree.Element) in item.attribute(XMPNamespace.xml, "lang") }
        if let container = element.children.first(where: { child in
            ["Bag", "Seq", "Alt"].contains { child.isNamed(XMPNamespace.rdf, $0) }
        }) {
            return container.children.filter { $0.isNamed(XMPNamespace.rdf, "li") && $0.children.isEmpty }
                .map { .init(language: language($0), text: $0.text.trimmingWhitespace) }
        }
        guard element.children.isEmpty, element.attribute(XMPNamespace.rdf, "resource") == nil else { return nil }
        return [.init(language: language(element), text: element.text.trimmingWhitespace)]
    }

    /// The first element of the tree, depth first, that `test` accepts.
    static func first(in element: XMLTree.Element, where test: (XMLTree.Element) -> Bool) -> XMLTree.Element? {
        if test(element) { return element }
        for child in element.children {
            if let found = first(in: child, where: test) { return found }
        }
        return nil
    }
}

/// One property of a packet: its namespace URI, local name and values (one for a simple value, each `rdf:li` of a
/// list or alternative).
struct XMPProperty: Sendable, Equatable {
    struct Value: Sendable, Equatable {
        var language: String?
        var text: String
    }

    var namespace: String
    var name: String
    var values: [Value]
}

/// Why a packet could not be read, in words: "it is not well-formed XML: line 3: …".
public struct XMPError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// The namespace URIs album reads (the XMP specification's, Adobe's, Dublin Core's).
enum XMPNamespace {
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    /// Google's camera namespace: `GCamera:MicroVideo` and `Camera:MotionPhoto` (the same URI under both prefixes).
    static let camera = "http://ns.google.com/photos/1.0/camera/"
    /// Google's container namespaces: `Container:Directory` and its items' `Item:Semantic`, `Item:Length`, `Item:Padding`.
    static let container = "http://ns.google.com/photos/1.0/container/"
    static let item = "http://ns.google.com/photos/1.0/container/item/"
}
