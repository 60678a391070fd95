/// Records one hop of a chain you already have: wrap a handler's body in it — one line per handler type.
///
/// The first instrumented hop of a command starts a trace (if ``ChainTracing/recorder`` wants it); every
/// instrumented hop that starts inside it — the next handler, called from this one — nests in the same trace,
/// unless its command is of another type *and* it names another `chain`: a side call into another chain (an audit
/// log, say) starts a trace of its own and leaves this one's decisions alone.
/// When the body returns, the hop's decision is inferred: *passed* if it forwarded to another instrumented
/// handler, *accepted* if it returned without forwarding, *failed* if it threw (the handler that threw first is
/// the one named). An observer (`role: .observer`) *continued*. `decide` judges the returned value instead —
/// `{ $0 == nil ? .accepted : .failed }` for handlers that return an error value — though a hop that forwarded is
/// never the acceptor, and a failure handed back up through it stays with the hop where it started (unless the
/// hop cancelled the hops that threw it — a timeout that won a race — and threw its own error: then it failed). A hop that
/// caught what a hop inside it threw and returned a value (a fallback, a retry) recovered: *accepted* unless a hop
/// inside it accepted, and that failure no longer ends the command.
/// ``ChainTracing/decide(_:reason:)`` overrides everything from inside the body.
///
/// ```swift
/// extension CoinHandler: CoinHandlerProtocol {
///     func handleCoinValidation(_ coin: Coin) -> Coin? {
///         traceHop("\(coinType)", command: coin, chain: "coins") {   // the one added line
///             guard let known = createCoin(from: coin) else { return next?.handleCoinValidation(coin) }
///             return known
///         }
///     }
/// }
/// ```
///
/// With no recorder in force anywhere this costs one atomic load per hop and evaluates nothing.
///
/// - Parameters:
///   - handler: The handler's name in traces; only evaluated when the command is traced.
///   - command: The command, for the trace's kind, id, payload and the recorder's filter.
///   - chain: The chain's name in traces; only evaluated by the outermost hop of a traced command.
///   - role: ``HandlerRole/observer`` for handlers that always let the command continue.
///   - decide: Judges the body's result; return `nil` to keep the inferred decision.
///   - body: The handler's own code, unchanged.
@inlinable
public func traceHop<Command, Result>(
    _ handler: @autoclosure () -> String,
    command: Command,
    chain: @autoclosure () -> String,
    role: HandlerRole = .responder,
    decide: ((Result) -> Decision?)? = nil,
    _ body: () throws -> Result
) rethrows -> Result {
    try ChainTracing.runHop(
        handler,
        command: { command },
        chain: chain,
        role: role,
        judge: { judge($0, decide) },
        onLoop: nil,
        { _ in try body() }
    )
}

/// Records one hop of a chain whose handlers return an Optional (`nil`: nobody took it). See
/// `traceHop(_:command:chain:role:decide:_:)`; in addition, a `nil` from a handler that forwarded nowhere is
/// *passed*, so the trace ends *fell off the end*, and a command caught in a loop is stopped after
/// ``ChainTracing/maximumHops`` with `nil` and a failed hop naming the loop.
@inlinable
public func traceHop<Command, Wrapped>(
    _ handler: @autoclosure () -> String,
    command: Command,
    chain: @autoclosure () -> String,
    role: HandlerRole = .responder,
    decide: ((Wrapped?) -> Decision?)? = nil,
    _ body: () throws -> Wrapped?
) rethrows -> Wrapped? {
    try ChainTracing.runHop(
        handler,
        command: { command },
        chain: chain,
        role: role,
        judge: { judgeOptional($0, decide) },
        onLoop: { nil },
        { _ in try body() }
    )
}

/// Records one hop of an async chain — handlers that `await` the next one. See
/// `traceHop(_:command:chain:role:decide:_:)`; the trace follows the task across suspension points, so
/// concurrent commands each get their own.
///
/// The body runs where the caller runs (`isolation`, the caller's by default), as its own code would: on the
/// main actor for a `@MainActor` handler, on the actor for an actor's, and off any actor for a plain class's — so
/// a body that awaits the next handler of a chain of plain non-`Sendable` classes compiles as written.
///
/// ```swift
/// func handle(_ form: SignUpForm) async -> SignUpError? {
///     await traceHop("CheckUsername", command: form, decide: { $0 == nil ? .accepted : .failed }) {
///         if let error = await usernames.check(form.username) { return error }
///         return await next?.handle(form)
///     }
/// }
/// ```
///
/// - Parameters:
///   - handler: The handler's name in traces; only evaluated when the command is traced.
///   - command: The command, for the trace's kind, id, payload and the recorder's filter.
///   - chain: The chain's name in traces; only evaluated by the outermost hop of a traced command.
///   - role: ``HandlerRole/observer`` for handlers that always let the command continue.
///   - decide: Judges the body's result; return `nil` to keep the inferred decision.
///   - isolation: The actor the body runs on: the caller's.
///   - body: The handler's own code, unchanged.
@inlinable
public func traceHop<Command, Result>(
    _ handler: @autoclosure () -> String,
    command: Command,
    chain: @autoclosure () -> String,
    role: HandlerRole = .responder,
    decide: ((Result) -> Decision?)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async rethrows -> Result {
    try await ChainTracing.runAsyncHop(
        handler,
        command: command,
        chain: chain,
        role: role,
        judge: { judge($0, decide) },
        onLoop: nil,
        isolation: isolation,
        body
    )
}

/// Records one hop of an async chain whose handlers return an Optional. See the synchronous Optional form; the
/// body runs where the caller runs, as in the async form.
@inlinable
public func traceHop<Command, Wrapped>(
    _ handler: @autoclosure () -> String,
    command: Command,
    chain: @autoclosure () -> String,
    role: HandlerRole = .responder,
    decide: ((Wrapped?) -> Decision?)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Wrapped?
) async rethrows -> Wrapped? {
    try await ChainTracing.runAsyncHop(
        handler,
        command: command,
        chain: chain,
        role: role,
        judge: { judgeOptional($0, decide) },
        onLoop: { Wrapped?.none },
        isolation: isolation,
        body
    )
}

/// A synchronous hop, as `traceHop(_:command:chain:role:decide:_:)` records it, for an integration whose command
/// costs something to make (the NIO probes'): `command` is called only by a hop that may start a trace — one nested
/// in the thread's trace of a command of the same type makes none. The body is told whether it runs as a hop open in
/// the thread's trace (`false`: untraced — no recorder, the command sampled out — or a hop of the task's trace).
@inlinable
package func traceHop<Command, Result>(
    _ handler: @autoclosure () -> String,
    makingCommand command: () -> Command,
    chain: @autoclosure () -> String,
    _ body: (_ isInThreadTrace: Bool) throws -> Result
) rethrows -> Result {
    try ChainTracing.runHop(
        handler,
        command: command,
        chain: chain,
        role: .responder,
        judge: { judge($0, nil) },
        onLoop: nil,
        body
    )
}

/// The hop's return as the caller's `decide` closure judges it, or a plain return.
@inlinable
func judge<Result>(_ result: Result, _ decide: ((Result) -> Decision?)?) -> HopReturn {
    guard let decide, let decision = decide(result) else { return .value }
    return .judged(decision, decision == .failed ? FailureText.of(result) : nil)
}

/// The Optional form: left to the recorder, a `nil` is *passed* (the handler took nothing); a judged failure is
/// described by the wrapped value, not `Optional(…)`.
@inlinable
func judgeOptional<Wrapped>(_ result: Wrapped?, _ decide: ((Wrapped?) -> Decision?)?) -> HopReturn {
    guard let decide, let decision = decide(result) else { return result == nil ? .nothing : .value }
    return .judged(decision, decision == .failed ? result.map { FailureText.of($0) } ?? "nil" : nil)
}
