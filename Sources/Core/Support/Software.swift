import Foundation
import SQLite
import Vips

/// The software that makes album's results, recorded with every run and folded into every parameters hash.
public struct Software: Sendable, Equatable {
    public var album: String
    public var vips: String
    public var sqlite: String
    public var host: String

    /// album's own version.
    public static let albumVersion = "0.1.0"

    /// The versions in this process.
    public static var current: Software {
        Software(album: albumVersion, vips: Vips.version, sqlite: Database.libraryVersion,
                 host: ProcessInfo.processInfo.hostName)
    }
}
