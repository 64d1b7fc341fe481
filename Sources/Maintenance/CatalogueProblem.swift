import Core

/// Something `album verify` found wrong: the file or row it concerns, and what is wrong, as a sentence.
public struct CatalogueProblem: Sendable, Equatable, CustomStringConvertible {
    /// What the problem is in: the names `album verify --json` prints as `"kind"` (docs/json.md, "verify").
    public enum Kind: String, Sendable {
        /// The database itself: its integrity or foreign-key check, or a read that could not finish.
        case database
        /// A row that refers to a photo or run the catalogue does not hold.
        case row
        /// A rendition's file: a filtered image, a thumbnail or an export.
        case rendition
        /// A photo's original (or a pair's second original), or the catalogue's copy of it.
        case original
    }

    /// A file's path, or the database's path for a problem inside it.
    public var path: String
    public var problem: String
    public var kind: Kind
    /// The photo's full id, when the problem is about one photo.
    public var photo: String?

    public init(path: String, problem: String, kind: Kind = .database, photo: String? = nil) {
        self.path = path
        self.problem = problem
        self.kind = kind
        self.photo = photo
    }

    public var description: String { "\(path): \(problem)" }

    /// `{"kind", "path", "photo", "message"}`: one element of `album verify --json`'s `problems`.
    public var json: JSONValue {
        .object([("kind", .string(kind.rawValue)), ("path", .string(path)), ("photo", .string(photo)), ("message", .string(problem))])
    }
}
