import Glibc

extension NativePath {
    /// The process's arguments, the program's name first, each read from `argv`'s own bytes: an argument that is
    /// not UTF-8 (`album import "$(printf 'caf\xe9.jpg')"`) keeps its bytes, in `NativePath`'s form, where
    /// `CommandLine.arguments` would replace them with U+FFFD and name a file that does not exist.
    public static var commandLineArguments: [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return string(Array(UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) }))
        }
    }
}
