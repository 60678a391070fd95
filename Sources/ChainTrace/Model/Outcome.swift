/// How a command's trip through a chain ended.
public enum Outcome: Sendable, Hashable {
    /// The named handler accepted the command.
    case accepted(by: String)
    /// Every handler on the path passed or continued and the path ran out: nobody handled the command.
    case fellOffTheEnd
    /// The named handler failed; `error` describes what it threw (or why the chain stopped it, for a loop).
    case failed(at: String, error: String)

    /// The handler that accepted the command, if one did.
    public var acceptingHandler: String? {
        if case .accepted(let handler) = self { return handler }
        return nil
    }

    /// The handler that failed, if one did.
    public var failingHandler: String? {
        if case .failed(let handler, _) = self { return handler }
        return nil
    }
}

extension Outcome: CustomStringConvertible {
    /// A short phrase: `accepted by Quarter`, `fell off the end`, `failed at Upload: timeout`.
    public var description: String {
        switch self {
        case .accepted(let handler): "accepted by \(handler)"
        case .fellOffTheEnd: "fell off the end"
        case .failed(let handler, let error): "failed at \(handler): \(error)"
        }
    }
}
