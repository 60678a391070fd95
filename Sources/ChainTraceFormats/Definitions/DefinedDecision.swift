import ChainTrace

/// What a handler built from a definition decides for a command — the one procedure behind both its real run
/// (`replay`, `makeChain`) and its dry run (`which`, `whoWouldHandle`).
///
/// The order is the documented one: a command its `fails` rule matches fails, whatever `accepts` says; otherwise a
/// responder accepts what `accepts` matches; everything else is passed on (an observer lets it continue).
struct DefinedDecision: Sendable {
    /// One decision.
    enum Verdict {
        case accept
        case otherwise
        case fail(String)
    }

    private let accepts: CompiledRule?
    private let failure: (when: CompiledRule, error: String)?
    /// What the handler answers when it neither accepts nor fails: pass, or continue for an observer.
    let otherwise: HandlerResponse<JSONCommand, JSONValue>
    private let otherwisePrediction: HandlerPrediction

    init(_ definition: HandlerDefinition, schema: FieldSchema?) {
        accepts = definition.role == .responder ? definition.accepts.map { CompiledRule.make($0, schema: schema) } : nil
        failure = definition.failure.map { (CompiledRule.make($0.when, schema: schema), $0.error) }
        otherwise = definition.role == .observer ? .continue : .pass
        otherwisePrediction = definition.role == .observer ? .continue : .pass
    }

    /// Whether any command can fail here.
    var canFail: Bool { failure != nil }

    /// The decision for `command`.
    @inline(__always)
    func decide(_ command: JSONCommand) -> Verdict {
        if let failure, failure.when.matches(command) { return .fail(failure.error) }
        if let accepts, accepts.matches(command) { return .accept }
        return .otherwise
    }

    /// The decision for `command` as a dry-run prediction.
    func prediction(for command: JSONCommand) -> HandlerPrediction {
        switch decide(command) {
        case .accept: .accept
        case .otherwise: otherwisePrediction
        case .fail(let error): .fail(error: error)
        }
    }
}
