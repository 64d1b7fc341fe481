import Core
import Foundation
import SQLite
import Vips

extension Software {
    /// The versions in this process: album's, and those of the libvips and SQLite it runs on (Run is the lowest
    /// layer that links both).
    public static var current: Software {
        Software(album: albumVersion, vips: Vips.version, sqlite: Database.libraryVersion,
                 host: ProcessInfo.processInfo.hostName)
    }
}
