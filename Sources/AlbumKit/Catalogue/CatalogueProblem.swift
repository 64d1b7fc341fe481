/// Something `album verify` found wrong: the file or row it concerns, and what is wrong, as a sentence.
public struct CatalogueProblem: Sendable, Equatable, CustomStringConvertible {
    /// A file's path, or the database's path for a problem inside it.
    public var path: String
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}
