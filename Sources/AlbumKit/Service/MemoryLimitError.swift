/// The address-space limit leaves too little for one worker: exit 3 with the message.
struct MemoryLimitError: Error, Sendable, CustomStringConvertible {
    var message: String
    var description: String { message }
}
