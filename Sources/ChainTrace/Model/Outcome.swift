/// How a command's trip through a chain ended.
public enum Outcome: Sendable, Hashable {
    /// The named handler accepted the command.
    case accepted(by: String)
    /// Every handler on the path passed or continued and the path ran out: nobody handled the command.
    case fellOffTheEnd
    /// The named handler failed; `error` describes what it threw (or why the chain stopped it, for a loop), as
    /// ``FailureText`` writes it: the message and the error's type, as in `short password (SignUpError)` for a
    /// `CustomStringConvertible` error — see ``FailureText`` for every kind of error.
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
    /// A short phrase: `accepted by Quarter`, `fell off the end`, `failed at Upload: timeout` (`accepted by (empty
    /// name)` for a handler with the empty name).
    public var description: String {
        switch self {
        case .accepted(let handler): "accepted by \(HandlerNameText.of(handler))"
        case .fellOffTheEnd: "fell off the end"
        case .failed(let handler, let error): "failed at \(HandlerNameText.of(handler)): \(error)"
        }
    }
}

extension Outcome {
    /// The outcome's kind as logs, spans and exports name it: `accepted`, `fellOffTheEnd` or `failed` (the `kind`
    /// member of its JSON form).
    public var kind: String {
        switch self {
        case .accepted: "accepted"
        case .fellOffTheEnd: "fellOffTheEnd"
        case .failed: "failed"
        }
    }
}

extension Outcome: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, handler, error
    }

    /// `{"kind": "accepted", "handler": …}`, `{"kind": "fellOffTheEnd"}` or
    /// `{"kind": "failed", "handler": …, "error": …}`, as `chaintrace` prints outcomes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .accepted(let handler):
            try container.encode(handler, forKey: .handler)
        case .fellOffTheEnd:
            break
        case .failed(let handler, let error):
            try container.encode(handler, forKey: .handler)
            try container.encode(error, forKey: .error)
        }
    }

    /// Reads the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "accepted": self = .accepted(by: try container.decode(String.self, forKey: .handler))
        case "fellOffTheEnd": self = .fellOffTheEnd
        case "failed":
            self = .failed(
                at: try container.decode(String.self, forKey: .handler),
                error: try container.decode(String.self, forKey: .error)
            )
        case let kind:
            throw DecodingError.dataCorruptedError(
                forKey: .kind,
                in: container,
                debugDescription: "expected \"accepted\", \"fellOffTheEnd\" or \"failed\", found \"\(kind)\""
            )
        }
    }
}
