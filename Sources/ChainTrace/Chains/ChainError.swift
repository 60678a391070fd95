import ChainTraceJSON

/// Why a chain could not do what was asked: an unknown or duplicate handler name, a loop, or a hop limit set
/// below a path's length.
///
/// ```swift
/// do { try chain.send(command, from: "cell") }
/// catch let error as ChainError where error.code == .loop { print(error.handlers) }
/// ```
public struct ChainError: SelfDescribingError, Sendable, Hashable {
    /// What kind of problem this is; compare with the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        /// A handler or registry name that the chain does not have.
        public static let unknownHandler = Code(name: "unknownHandler")
        /// A name already used in the chain.
        public static let duplicateName = Code(name: "duplicateName")
        /// The chain's links lead round in a circle.
        public static let loop = Code(name: "loop")
        /// A command reached the chain's hop limit (`maximumHops`) on a path that does not loop: the limit is set
        /// below the path's length.
        public static let hopLimit = Code(name: "hopLimit")
        /// The chain has no handler to start at.
        public static let noEntry = Code(name: "noEntry")
        /// The name is a handler where a registry was needed, or the other way round; or a registry's member
        /// where a handler of the chain's own paths was needed (an entry, a place to insert or link).
        public static let wrongKind = Code(name: "wrongKind")
        public var description: String { name }
    }

    /// What kind of problem this is.
    public let code: Code
    /// The chain the problem is in.
    public let chain: String
    /// The handlers involved: the unknown or duplicate name, the handlers in the loop in order, the handler a hop
    /// limit stopped a command at, or a registry's member named where a handler of the chain's own paths was
    /// needed and then its registry.
    public let handlers: [String]
    /// A sentence a person can act on.
    public let message: String

    /// The message, with the names it quotes shown escaped (`VisibleText`): one line that never acts on a
    /// terminal. ``message`` keeps them exactly.
    public var description: String { VisibleText.escaped(message) }

    static func unknownHandler(_ name: String, in chain: String, known: [String]) -> ChainError {
        let list = known.isEmpty ? "it has no handlers" : "it has: \(known.joined(separator: ", "))"
        return ChainError(
            code: .unknownHandler,
            chain: chain,
            handlers: [name],
            message: "chain '\(chain)' has no handler named '\(name)'; \(list)"
        )
    }

    /// `name` is a member of `registry`, where a handler of the chain's own paths was needed (an entry, a place
    /// to insert or link, a handler to remove).
    static func registryMember(_ name: String, of registry: String, in chain: String) -> ChainError {
        ChainError(
            code: .wrongKind,
            chain: chain,
            handlers: [name, registry],
            message:
                "'\(name)' in chain '\(chain)' is a member of registry '\(registry)', not a handler on the chain's own "
                + "paths; name '\(registry)' instead (its members are reached through it, and changed by register and deregister)"
        )
    }

    static func duplicateName(_ name: String, in chain: String) -> ChainError {
        ChainError(
            code: .duplicateName,
            chain: chain,
            handlers: [name],
            message: "chain '\(chain)' already has a handler named '\(name)'; handler names must be unique"
        )
    }

    /// A command caught in `cycle`, stopped after `hops` hops. `registriesCountOnce`: the hops were counted along
    /// the chain's own path, a registry and the members it asked counting as one, so a trace shows more.
    @usableFromInline
    static func loop(_ cycle: [String], in chain: String, afterHops hops: Int, registriesCountOnce: Bool = false)
        -> ChainError
    {
        let route = (cycle + cycle.prefix(1)).joined(separator: " → ")
        let counted = registriesCountOnce ? " along its own path (a registry and its members count as one)" : ""
        return ChainError(
            code: .loop,
            chain: chain,
            handlers: cycle,
            message:
                "chain '\(chain)' loops (\(route)); stopped after \(hopCount(hops))\(counted). Relink one of these handlers."
        )
    }

    /// A command stopped at `handler` after `hops` hops, the chain's `limit`, on a path with no loop, which
    /// `needed` hops would have finished (`nil`: not known — an instrumented chain's path is not known ahead).
    static func hopLimit(
        at handler: String,
        in chain: String,
        hops: Int,
        limit: Int,
        needed: Int?,
        registriesCountOnce: Bool = false
    ) -> ChainError {
        let raise =
            needed.map { "raise the limit to at least \($0), this path's length" }
            ?? "raise the limit if the chain is this long"
        let counted = registriesCountOnce ? " along its own path (a registry and its members count as one)" : ""
        return ChainError(
            code: .hopLimit,
            chain: chain,
            handlers: [handler],
            message:
                "chain '\(chain)' stopped a command at '\(handler)' after \(hopCount(hops))\(counted), its hop limit "
                + "(maximumHops \(limit)); no handler repeated, so this is no loop: \(raise)"
        )
    }

    /// "1 hop", "2 hops".
    private static func hopCount(_ hops: Int) -> String {
        hops == 1 ? "1 hop" : "\(hops) hops"
    }

    @usableFromInline
    static func noEntry(in chain: String) -> ChainError {
        ChainError(
            code: .noEntry,
            chain: chain,
            handlers: [],
            message: "chain '\(chain)' is empty: add a handler before sending commands"
        )
    }

    static func wrongKind(_ name: String, in chain: String, expected: String) -> ChainError {
        ChainError(
            code: .wrongKind,
            chain: chain,
            handlers: [name],
            message: "'\(name)' in chain '\(chain)' is not \(expected)"
        )
    }
}
