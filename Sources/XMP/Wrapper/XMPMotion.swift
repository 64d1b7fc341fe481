/// Where a Motion Photo's packet says its movie lies (Google's Motion Photo format 1.0 and the older "MicroVideo"
/// one that Samsung and early Pixels write): counted from the end of the file, since the movie is appended after the
/// still. `XMPPacket.motion` reads it; `MotionPart` checks it against the file's bytes.
///
/// ```
/// GCamera:MicroVideo="1" GCamera:MicroVideoOffset="123456"          → fromEnd 123456, length 123456
/// Camera:MotionPhoto="1", Container:Directory [Primary (Padding 0),
///     MotionPhoto (Length 123456)]                                   → fromEnd 123456, length 123456
/// ```
public struct XMPMotion: Sendable, Equatable {
    /// How many bytes before the end of the file the movie starts.
    public var fromEnd: Int
    /// The movie's length in bytes.
    public var length: Int

    public init(fromEnd: Int, length: Int) {
        self.fromEnd = fromEnd
        self.length = length
    }
}

extension XMPPacket {
    /// The markers of a Motion Photo among `properties`, with the `Container:Directory` under `rdf`: nil when the
    /// packet marks none; a note when it marks one it does not place (no offset, a number that is none).
    static func motion(_ properties: [XMPProperty], rdf: XMLTree.Element?) -> (XMPMotion?, String?) {
        func flag(_ name: String) -> String? {
            properties.first { $0.namespace == XMPNamespace.camera && $0.name == name }?.values.first?.text
        }
        if flag("MotionPhoto") == "1" {
            guard let items = rdf.flatMap(directoryItems) else {
                return (nil, "Camera:MotionPhoto is 1 but the packet has no Container:Directory to say where its movie is")
            }
            guard let index = items.firstIndex(where: { $0.semantic == "MotionPhoto" }) else {
                return (nil, "Camera:MotionPhoto is 1 but its Container:Directory has no item of Item:Semantic MotionPhoto")
            }
            guard let length = items[index].length, length > 0 else {
                return (nil, "the MotionPhoto item of its Container:Directory has no Item:Length above 0")
            }
            // The movie and every item after it (each with its padding) make up the end of the file.
            let after = items[index...].reduce(0) { $0 + max(0, $1.length ?? 0) + max(0, $1.padding ?? 0) }
            return (XMPMotion(fromEnd: after, length: length), nil)
        }
        if flag("MicroVideo") == "1" {
            guard let text = flag("MicroVideoOffset") else {
                return (nil, "GCamera:MicroVideo is 1 but GCamera:MicroVideoOffset is missing")
            }
            guard let offset = Int(text), offset > 0 else {
                return (nil, "GCamera:MicroVideoOffset '\(text)' is not a number of bytes above 0")
            }
            return (XMPMotion(fromEnd: offset, length: offset), nil)
        }
        return (nil, nil)
    }

    /// One item of a `Container:Directory`: what it is and its byte counts.
    struct DirectoryItem {
        var semantic: String?
        var length: Int?
        var padding: Int?
    }

    /// The items of the first `Container:Directory` under `rdf`, in order: each `rdf:li` of its `rdf:Seq`, holding a
    /// `Container:Item` whose `Item:` fields are attributes (as Google writes them) or elements (as exiftool does).
    static func directoryItems(_ rdf: XMLTree.Element) -> [DirectoryItem]? {
        guard let directory = first(in: rdf, where: { $0.isNamed(XMPNamespace.container, "Directory") }),
              let sequence = directory.children.first(where: { $0.isNamed(XMPNamespace.rdf, "Seq") }) else { return nil }
        return sequence.children.filter { $0.isNamed(XMPNamespace.rdf, "li") }.map { entry in
            let item = entry.children.first { $0.isNamed(XMPNamespace.container, "Item") } ?? entry
            func field(_ name: String) -> String? {
                (item.attribute(XMPNamespace.item, name)
                    ?? item.children.first { $0.isNamed(XMPNamespace.item, name) }?.text)?.trimmingWhitespace
            }
            return DirectoryItem(semantic: field("Semantic"), length: field("Length").flatMap { Int($0) },
                                 padding: field("Padding").flatMap { Int($0) })
        }
    }
}
