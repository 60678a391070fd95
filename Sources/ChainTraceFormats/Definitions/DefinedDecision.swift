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

    private let name: String
    private let accepts: CompiledRule?
    private let failure: (when: CompiledRule, error: String)?
    /// Whether the handler, when it neither accepts nor fails, lets the command continue (an observer) rather than
    /// pass it on.
    private let continues: Bool

    init(_ definition: HandlerDefinition, schema: FieldSchema?) {
        name = definition.name
        accepts = definition.role == .responder ? definition.accepts.map { CompiledRule.make($0, schema: schema) } : nil
        failure = definition.failure.map { (CompiledRule.make($0.when, schema: schema), $0.error) }
        continues = definition.role == .observer
    }

    /// The decision for `command`.
    @inline(__always)
    func decide(_ command: JSONCommand) -> Verdict {
        if let failure, failure.when.matches(command) { return .fail(failure.error) }
        if let accepts, accepts.matches(command) { return .accept }
        return .otherwise
    }

    /// The decision for `command` as the handler's response (the real run). The response is made here rather
    /// than copied from a captured one, so passing copies nothing.
    @inline(__always)
    func response(to command: JSONCommand) throws(DefinedHandlerFailure) -> HandlerResponse<JSONCommand, JSONValue> {
        switch decide(command) {
        case .accept: .accept(.string(name))
        case .otherwise: continues ? .continue : .pass
        case .fail(let error): throw DefinedHandlerFailure(handler: name, message: error)
        }
    }

    /// The decision for `command` as a dry-run prediction.
    func prediction(for command: JSONCommand) -> HandlerPrediction {
        switch decide(command) {
        case .accept: .accept
        case .otherwise: continues ? .continue : .pass
        case .fail(let error): .fail(error: error)
        }
    }
}
