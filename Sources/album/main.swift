import Commands
import Core
import Foundation
import System

// Before anything opens a file: closed descriptors 0-2 reopened on /dev/null, SIGPIPE ignored (Console).
Console.prepareStandardStreams()
// The arguments as bytes (NativePath): a file name that is not UTF-8 names its own file.
CurrentProcess.exit(Album.main(Array(NativePath.commandLineArguments.dropFirst())))
