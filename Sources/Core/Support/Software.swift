import Foundation

/// The software that makes album's results, recorded with every run and folded into every parameters hash.
public struct Software: Sendable, Equatable {
    public var album: String
    public var vips: String
    public var sqlite: String
    public var host: String

    /// album's own version.
    public static let albumVersion = "0.1.0"

    public init(album: String, vips: String, sqlite: String, host: String) {
        self.album = album
        self.vips = vips
        self.sqlite = sqlite
        self.host = host
    }
}
