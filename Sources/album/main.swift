import AlbumKit
import Foundation

// Before anything opens a file: closed descriptors 0-2 reopened on /dev/null, SIGPIPE ignored (Console).
Console.prepareStandardStreams()
exit(Album.main(Array(CommandLine.arguments.dropFirst())))
