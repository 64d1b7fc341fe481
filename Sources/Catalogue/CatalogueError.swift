/// The catalogue cannot be used: album stops the run with exit status 3 (see the README's table).
public struct CatalogueError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// For "no catalogue at DIR": DIR, so that the command line can say where it looked (`CatalogueLocation`).
    public var missingFolder: String? = nil
    /// Another album holds the catalogue's writer lock: a later try may succeed (`album watch` waits and tries again).
    public var lockHeld = false
    public init(_ message: String, missingFolder: String? = nil) {
        self.message = message
        self.missingFolder = missingFolder
    }
    public var description: String { message }
}
