import AlbumKit
import Foundation

exit(Album.main(Array(CommandLine.arguments.dropFirst())))
