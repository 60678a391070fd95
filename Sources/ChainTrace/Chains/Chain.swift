import CChainTraceSupport

/// A chain of responsibility of synchronous handlers, traced with no code in the handlers.
///
/// Handlers are linked by `next`: in a line (a validator chain) or as a tree with many entries (a responder
/// chain). ``send(_:from:)`` walks from an entry until a handler accepts, one throws, or the path ends; with a
/// ``recorder`` set, every hop is recorded at the cost of one clock read.
///
/// ```swift
/// let chain = try Chain<Coin, Coin>("coins", handlers: [penny, nickel, dime, quarter])
/// let sink = InMemoryTraceSink()
/// chain.recorder = Recorder(sink: sink)
/// let coin = try chain.send(unknownCoin)   // nil: nobody accepted it
/// print(sink.traces.last!.path)            // ["Penny", "Nickel", "Dime", "Quarter"]
/// ```
public final class Chain<Command, Result>: ChainBase<Handler<Command, Result>>, @unchecked Sendable {
    /// Creates a chain of `handlers` in order, the first being the head.
    ///
    /// - Throws: ``ChainError`` if two handlers share a name.
    public init(_ name: String, handlers: [Handler<Command, Result>] = [], recorder: Recorder = .off) throws(ChainError) {
        try super.init(
            name: name,
            handlers: handlers,
            recorder: recorder,
            command: CommandTypeInfo(Command.self),
            boxOf: { $0.box }
        )
    }

    /// The storage of this chain's handlers.
    @usableFromInline
    typealias Box = HandlerBox<Command, @Sendable (Command) throws -> HandlerResponse<Command, Result>>

    /// Sends `command` into the chain at `entry` (by default the head).
    ///
    /// - Returns: The accepting handler's result, or `nil` if the command fell off the end.
    /// - Throws: Whatever a handler threw (the trace marks it failed), or ``ChainError`` for an unknown entry or
    ///   a loop.
    @inlinable
    @discardableResult
    public func send(_ command: Command, from entry: String? = nil) throws -> Result? {
        let thread = ThreadState.current
        let chain = currentSnapshot(thread: thread)
        let start = try chain.entryIndex(entry)
        if let configuration = chain.recorder.configuration ?? ChainTracing.scopedConfiguration {
            if configuration.admits(command, thread: thread) {
                var hops = TracedHops(chain: chain, entry: start, thread: thread)
                do {
                    let result = try Self.walk(chain, command, from: start, observer: &hops)
                    let trace = hops.trace(
                        of: command, over: chain, capturingPayload: configuration.capturesPayloads, id: thread.makeTraceID())
                    configuration.sink.record(trace)
                    return result
                } catch {
                    let trace = hops.trace(
                        of: command, over: chain, capturingPayload: configuration.capturesPayloads, id: thread.makeTraceID())
                    configuration.sink.record(trace)
                    throw error
                }
            }
        }
        var untraced = UntracedHops()
        return try Self.walk(chain, command, from: start, observer: &untraced)
    }

    /// Sends `command` exactly as ``send(_:from:)`` does with a recorder on, but hands its trace straight back
    /// instead of to a sink — how `chaintrace replay` records every command it replays. The caller says what the
    /// trace records about the command (its kind, id and payload), as it already knows. A handler's error ends
    /// up in the trace, as a failed hop.
    ///
    /// - Throws: ``ChainError`` when the command cannot even enter the chain (an unknown entry), so there is no
    ///   trace.
    @inlinable
    package func sendForTrace(
        _ command: Command,
        from entry: String? = nil,
        describedAs description: (kind: String?, id: String?, payload: JSONValue?)
    ) throws(ChainError) -> Trace {
        let thread = ThreadState.current
        let chain = currentSnapshot(thread: thread)
        let start = try chain.entryIndex(entry)
        var hops = TracedHops(chain: chain, entry: start, thread: thread)
        _ = try? Self.walk(chain, command, from: start, observer: &hops)
        return hops.trace(describedAs: description, id: thread.makeTraceID())
    }

    /// Who would take `command` if it were sent to `entry`: asks each handler's dry-run test, runs nothing.
    public func whoWouldHandle(_ command: Command, from entry: String? = nil) throws(ChainError) -> DryRun {
        try dryRun(from: entry) { $0.test(command) }
    }

    @inlinable
    static func walk<Observer: HopObserver>(
        _ chain: CompiledChain<Handler<Command, Result>>,
        _ command: Command,
        from start: Int32,
        observer: inout Observer
    ) throws -> Result? {
        var command = command
        var index = start
        var hops = 0
        while index >= 0 {
            hops += 1
            if hops > chain.hopLimit {
                let error = chain.loopError(at: index, hops: hops - 1)
                observer.failed(index, registry: -1, error: error)
                throw error
            }
            // Fields are read one by one: copying the whole node would retain its handler on every hop.
            if let box = chain.nodes[Int(index)].box {
                if let result = try step(box, index, registry: -1, &command, &observer) { return result }
            } else {
                let mark = observer.beginRegistry(index)
                defer { observer.endRegistry(mark) }
                for member in chain.registries[Int(chain.nodes[Int(index)].registry)] {
                    if let result = try step(member.box, member.name, registry: index, &command, &observer) {
                        return result
                    }
                }
            }
            index = chain.nodes[Int(index)].next
        }
        return nil
    }

    /// One handler's turn: returns the result if it accepted, `nil` to go on. The handler's box is used
    /// without retaining it: the snapshot being walked keeps it alive.
    @inlinable
    static func step<Observer: HopObserver>(
        _ box: UnsafeRawPointer,
        _ name: Int32,
        registry: Int32,
        _ command: inout Command,
        _ observer: inout Observer
    ) throws -> Result? {
        let response: HandlerResponse<Command, Result>
        do {
            let current = command
            response = try Unmanaged<Box>.fromOpaque(box)._withUnsafeGuaranteedRef { try $0.body(current) }
        } catch {
            observer.failed(name, registry: registry, error: error)
            throw error
        }
        switch response.kind {
        case .accept(let result):
            observer.hop(name, registry: registry, decision: .accepted, reason: response.reason)
            return result
        case .pass:
            observer.hop(name, registry: registry, decision: .passed, reason: response.reason)
        case .proceed(let replacement):
            observer.hop(name, registry: registry, decision: .continued, reason: response.reason)
            if let replacement { command = replacement }
        }
        return nil
    }
}
