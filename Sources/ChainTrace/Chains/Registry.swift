import ChainTraceFastPath

/// A registry in a chain: an internal chain of "late responders" that register and deregister at run time,
/// ordered by weight (highest first; equal weights, newest first).
///
/// When a command reaches the registry, its members get it in order; the first to accept ends the chain, and
/// if none does the command goes on past the registry. Their hops are recorded with ``Hop/registry`` set.
///
/// ```swift
/// let lateResponders = try chain.addRegistry("LateResponders", at: .before("App"))
/// try lateResponders.register(Handler("ListShortcuts") { … }, weight: 10)
/// try lateResponders.deregister("ListShortcuts")
/// ```
public struct Registry<Member: ChainMember>: Sendable {
    /// The registry's name in its chain.
    public let name: String
    private let chain: ChainBase<Member>

    init(name: String, chain: ChainBase<Member>) {
        self.name = name
        self.chain = chain
    }

    /// Adds `handler` to the internal chain; its name must be unique in the whole chain.
    public func register(_ handler: Member, weight: Int = 0) throws(ChainError) {
        try chain.edit(.register, handler.name, "in \(name), weight \(weight)") { state throws(ChainError) in
            try state.structure.register(handler, weight: weight, in: name)
        }
    }

    /// Removes the named member; returns `false` if it was not registered here.
    @discardableResult
    public func deregister(_ handlerName: String) throws(ChainError) -> Bool {
        try chain.edit(.deregister, handlerName, "from \(name)") { state throws(ChainError) in
            try state.structure.deregister(handlerName, from: name)
        }
    }

    /// The members in the order commands reach them, with their weights.
    public func members() throws(ChainError) -> [(name: String, weight: Int)] {
        try chain.state.withLock { state throws(ChainError) in try state.structure.members(of: name) }
    }
}
