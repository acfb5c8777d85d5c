/// The error stub handlers throw by default: a message and nothing else.
public struct InjectedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was injected.
    public let message: String

    /// Creates an error carrying `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
