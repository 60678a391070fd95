/// How a handler's turn ends for a walk.
///
/// ``Chain`` and ``AsyncChain`` walk alike; their loops are two only because one awaits its handlers and Swift
/// has no `reasync`. Everything about a turn but the call itself — what the hop records, whether the walk goes
/// on and with which command, when it is stopped as a loop — is here, once.
@usableFromInline
enum HandlerTurn<Command, Result> {
    /// It accepted: the walk returns this.
    case accepted(Result)
    /// The walk goes on with the same command.
    case goesOn
    /// The walk goes on with this command instead.
    case goesOnWith(Command)
}

extension HopObserver {
    /// Records the hop a handler's `response` makes and says how the walk goes on.
    ///
    /// Always inlined: left to the optimiser, a replay through another module called it per hop, which cost a
    /// quarter of `chaintrace replay`'s speed (`chaintrace-cli-benchmarks`: 1.47 against 1.98 M commands/s).
    @inlinable @inline(__always)
    mutating func turn<Command, Result>(
        after response: HandlerResponse<Command, Result>,
        of handler: Int32,
        registry: Int32
    ) -> HandlerTurn<Command, Result> {
        switch response.kind {
        case .accept(let result):
            hop(handler, registry: registry, decision: .accepted, reason: response.reason)
            return .accepted(result)
        case .pass:
            hop(handler, registry: registry, decision: .passed, reason: response.reason)
            return .goesOn
        case .proceed(let replacement):
            hop(handler, registry: registry, decision: .continued, reason: response.reason)
            guard let replacement else { return .goesOn }
            return .goesOnWith(replacement)
        }
    }
}

extension CompiledChain {
    /// Stops a walk that has taken more hops than the chain allows, naming the loop, and records it at `index`.
    @inlinable @inline(__always)
    func checkHopLimit<Observer: HopObserver>(_ hops: Int, at index: Int32, _ observer: inout Observer)
        throws(ChainError)
    {
        guard hops > hopLimit else { return }
        throw observer.stopped(index) { loopError(at: index, hops: hops - 1) }
    }
}
