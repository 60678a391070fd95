/// What a handler's dry-run test says it would do with one command, without doing it.
///
/// A chain's ``Chain/whoWouldHandle(_:from:)`` walks these predictions exactly as ``Chain/send(_:from:)`` walks the
/// real decisions, so a handler that predicts what it does makes the dry run agree with the real run.
public enum HandlerPrediction: Sendable, Hashable {
    /// It would accept: the walk stops here.
    case accept
    /// It would pass the command on.
    case pass
    /// It would observe the command and let it continue.
    case `continue`
    /// It would fail with this error text: the walk stops here.
    case fail(error: String)
    /// It cannot tell without running.
    case unknown

    /// The prediction of a `canHandle` test: `true` accepts; `false` passes (continues, for an observer); `nil` is
    /// unknown. An observer always continues.
    static func from(_ canHandle: Bool?, role: HandlerRole) -> HandlerPrediction {
        if role == .observer { return .continue }
        switch canHandle {
        case true?: return .accept
        case false?: return .pass
        case nil: return .unknown
        }
    }

    /// The prediction of an optional `canHandle` closure.
    static func from<Command>(
        _ canHandle: (@Sendable (Command) -> Bool)?,
        role: HandlerRole
    ) -> @Sendable (Command) -> HandlerPrediction {
        guard let canHandle else { return { _ in from(nil, role: role) } }
        return { command in from(canHandle(command), role: role) }
    }
}
