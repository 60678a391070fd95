public import ChainTrace
import ChainTraceJSON

/// The error a defined handler throws when its `"fails"` rule matches a command.
public struct DefinedHandlerFailure: SelfDescribingError, Sendable, Hashable {
    /// The handler that failed.
    public var handler: String
    /// The error text from the definition.
    public var message: String

    /// Creates a failure.
    public init(handler: String, message: String) {
        self.handler = handler
        self.message = message
    }

    /// The message, as traces record it.
    public var description: String { message }
}
