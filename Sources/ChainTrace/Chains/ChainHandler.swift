/// A handler type of your own for a ``Chain``.
///
/// Conform when a handler has state or configuration; for one-off logic use ``Handler``'s closure initialiser.
/// A chain holds conformers as ``Handler`` values: `chain.append(Handler(QuarterValidator()))`.
///
/// ```swift
/// struct QuarterValidator: ChainHandler {
///     let name = "Quarter"
///     func handle(_ coin: Coin) throws -> HandlerResponse<Coin, Coin> {
///         coin.weight == 5.67 ? .accept(coin) : .pass
///     }
///     func canHandle(_ coin: Coin) -> Bool? { coin.weight == 5.67 }
/// }
/// ```
public protocol ChainHandler<Command, Result>: Sendable {
    /// The commands this handler looks at.
    associatedtype Command
    /// What the chain returns when this handler accepts.
    associatedtype Result
    /// A name unique within the chain; traces and reports use it.
    var name: String { get }
    /// Whether this handler may accept, or only observes. Defaults to ``HandlerRole/responder``.
    var role: HandlerRole { get }
    /// Looks at the command and decides. Throwing stops the chain; the trace marks this handler failed.
    func handle(_ command: Command) throws -> HandlerResponse<Command, Result>
    /// For dry runs: whether this handler would accept `command`, without doing any work. `nil` (the
    /// default) means it cannot tell.
    func canHandle(_ command: Command) -> Bool?
}

extension ChainHandler {
    /// A responder, unless the type says otherwise.
    public var role: HandlerRole { .responder }
    /// Cannot tell: dry runs list the handler as undecided and walk on.
    public func canHandle(_ command: Command) -> Bool? { nil }
}

/// A handler type of your own for an ``AsyncChain``: like ``ChainHandler``, but `handle` may suspend.
public protocol AsyncChainHandler<Command, Result>: Sendable {
    /// The commands this handler looks at.
    associatedtype Command
    /// What the chain returns when this handler accepts.
    associatedtype Result
    /// A name unique within the chain; traces and reports use it.
    var name: String { get }
    /// Whether this handler may accept, or only observes. Defaults to ``HandlerRole/responder``.
    var role: HandlerRole { get }
    /// Looks at the command and decides. Throwing stops the chain; the trace marks this handler failed.
    func handle(_ command: Command) async throws -> HandlerResponse<Command, Result>
    /// For dry runs: whether this handler would accept `command`, without doing any work; `nil` if it cannot tell.
    func canHandle(_ command: Command) -> Bool?
}

extension AsyncChainHandler {
    /// A responder, unless the type says otherwise.
    public var role: HandlerRole { .responder }
    /// Cannot tell: dry runs list the handler as undecided and walk on.
    public func canHandle(_ command: Command) -> Bool? { nil }
}
