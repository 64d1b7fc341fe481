/// The address-space limit leaves too little for one worker: exit 3 with the message.
struct MemoryLimitError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
