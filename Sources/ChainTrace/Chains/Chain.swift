import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceJSON

/// A chain of responsibility of synchronous handlers, traced with no code in the handlers.
///
/// Handlers are linked by `next`: in a line (a validator chain) or as a tree with many entries (a responder
/// chain). ``send(_:from:)`` walks from an entry until a handler accepts, one throws, or the path ends; with a
/// `recorder` set, every hop is recorded at the cost of one clock read.
///
/// ```swift
/// let chain = try Chain<Coin, Coin>("coins", handlers: [penny, nickel, dime, quarter])
/// let sink = InMemoryTraceSink()
/// chain.recorder = Recorder(sink: sink)
/// let coin = try chain.send(unknownCoin)   // nil: nobody accepted it
/// print(sink.traces.last!.path)            // ["Penny", "Nickel", "Dime", "Quarter"]
/// ```
public final class Chain<Command, Result>: @unchecked Sendable, CustomDebugStringConvertible {
    /// The structure, recorder and snapshots; every edit goes through it.
    @usableFromInline let core: ChainBase<Handler<Command, Result>>

    /// Creates a chain of `handlers` in order, the first being the head.
    ///
    /// - Throws: ``ChainError`` if two handlers share a name.
    public convenience init(
        _ name: String,
        handlers: [Handler<Command, Result>] = [],
        recorder: Recorder = .off
    ) throws(ChainError) {
        try self.init(name, handlers: handlers, recorder: recorder, command: CommandTypeInfo(Command.self))
    }

    /// Creates a chain whose commands' type is described by `command`.
    init(
        _ name: String,
        handlers: [Handler<Command, Result>],
        recorder: Recorder,
        command: CommandTypeInfo
    ) throws(ChainError) {
        core = try ChainBase(name: name, handlers: handlers, recorder: recorder, command: command, boxOf: { $0.box })
    }

    /// The storage of this chain's handlers.
    @usableFromInline
    typealias Box = HandlerBox<Command, @Sendable (Command) throws -> HandlerResponse<Command, Result>>

    // MARK: Structure, edits and recording, forwarded to the core

    /// The chain's name, as traces record it.
    public var name: String { core.name }

    /// Starts at 0 and increases with every edit; each trace records the version it ran on.
    public var version: Int { core.version }

    /// Where this chain's traces go; ``Recorder/off`` by default. May be changed at any time.
    public var recorder: Recorder {
        get { core.recorder }
        set { core.recorder = newValue }
    }

    /// Where the chain's edits are told when its recorder has no sink: a replay, which records its traces itself,
    /// writes the edits of the chain it replays through into the same trace log this way.
    package var changeSink: (any TraceSink)? {
        get { core.changeSink }
        set { core.changeSink = newValue }
    }

    /// The most hops one command may take before the chain stops it: with a ``ChainError`` of code `.loop` when
    /// its path repeats a handler, else `.hopLimit`. `nil` (the default) means one hop per node, which no loop-free
    /// path exceeds.
    public var maximumHops: Int? {
        get { core.maximumHops }
        set { core.maximumHops = newValue }
    }

    /// The names of the chain's handlers and registries, in the order they were added.
    public var handlerNames: [String] { core.handlerNames }

    /// The names a command sent to `entry` (by default the head) would pass, stopping before any repeat.
    public func path(from entry: String? = nil) -> [String] { core.path(from: entry) }

    /// Adds `handler` after the last handler of the head's path.
    public func append(_ handler: Handler<Command, Result>) throws(ChainError) { try core.append(handler) }

    /// Adds `handler` at `position`.
    public func insert(_ handler: Handler<Command, Result>, at position: ChainPosition) throws(ChainError) {
        try core.insert(handler, at: position)
    }

    /// Adds `handler` to a tree: it forwards to `next` (a node already in the chain), or ends its path when `nil`.
    /// The first node added to an empty chain becomes its head.
    public func add(_ handler: Handler<Command, Result>, next: String?) throws(ChainError) {
        try core.add(handler, next: next)
    }

    /// Removes the named handler or registry; whatever led to it now leads where it led. Removing the head makes
    /// the node it led to the head; a head that led nowhere (an entry of a tree) hands over to the first node
    /// left, in the order they were added, that no other forwards to.
    public func remove(_ name: String) throws(ChainError) { try core.remove(name) }

    /// Puts `handler` in the named handler's place, keeping its links.
    public func replace(_ name: String, with handler: Handler<Command, Result>) throws(ChainError) {
        try core.replace(name, with: handler)
    }

    /// Makes the named node forward to `next` (`nil`: end of path). Like setting a responder's `nextResponder`,
    /// this can close a loop; a loop is stopped at run time with a ``ChainError`` naming its handlers.
    public func link(_ name: String, to next: String?) throws(ChainError) { try core.link(name, to: next) }

    /// Adds a registry — an internal chain of late responders ordered by weight — at `position`.
    @discardableResult
    public func addRegistry(_ name: String, at position: ChainPosition = .last) throws(ChainError) -> Registry<
        Handler<Command, Result>
    > {
        try core.addRegistry(name, at: position)
    }

    /// Adds a registry to a tree: it forwards to `next` (a node already in the chain), or ends its path when `nil`.
    @discardableResult
    public func addRegistry(_ name: String, next: String?) throws(ChainError) -> Registry<Handler<Command, Result>> {
        try core.addRegistry(name, next: next)
    }

    /// The registry with this name.
    public func registry(_ name: String) throws(ChainError) -> Registry<Handler<Command, Result>> {
        try core.registry(name)
    }

    /// Makes every edit `body` makes as one: one snapshot is built at the end, instead of one an edit.
    package func editingInOneGo<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        try core.editingInOneGo(body)
    }

    /// A table of the chain: each node, its kind and where it forwards.
    public var debugDescription: String { core.debugDescription }

    /// Sends `command` into the chain at `entry` (by default the head).
    ///
    /// - Returns: The accepting handler's result, or `nil` if the command fell off the end.
    /// - Throws: Whatever a handler threw (the trace marks it failed), or ``ChainError`` for an unknown entry or
    ///   a loop.
    @inlinable
    @discardableResult
    public func send(_ command: Command, from entry: String? = nil) throws -> Result? {
        // The thread's state is lent, not returned: returned, it was retained and released once a command.
        try ThreadState.withCurrent { thread in
            let chain = core.currentSnapshot(thread: thread)
            let start = try chain.entryIndex(entry)
            if let configuration = chain.recorder.configuration
                ?? ChainTracing.scopedConfiguration(thread: thread, chain: { self.name })
            {
                if configuration.admits(command, thread: thread) {
                    var hops = TracedHops(chain: chain, entry: start, thread: thread)
                    do {
                        let result = try Self.walk(chain, command, from: start, observer: &hops)
                        let trace = hops.trace(
                            of: command,
                            over: chain,
                            capturing: configuration.payloadCapture,
                            id: thread.makeTraceID()
                        )
                        configuration.record(trace, on: thread)
                        return result
                    } catch {
                        let trace = hops.trace(
                            of: command,
                            over: chain,
                            capturing: configuration.payloadCapture,
                            id: thread.makeTraceID()
                        )
                        configuration.record(trace, on: thread)
                        throw error
                    }
                }
            }
            var untraced = UntracedHops()
            return try Self.walk(chain, command, from: start, observer: &untraced)
        }
    }

    /// Sends `command` exactly as ``send(_:from:)`` does with a recorder on, but hands its trace straight back
    /// instead of to a sink — how `chaintrace replay` records every command it replays. The caller says what the
    /// trace records about the command (its kind, id and payload), as it already knows. A handler's error ends
    /// up in the trace, as a failed hop.
    ///
    /// - Parameter thread: The calling thread, looked up once for the caller's whole loop.
    /// - Throws: ``ChainError`` when the command cannot even enter the chain (an unknown entry), so there is no
    ///   trace.
    @inlinable
    package func sendForTrace(
        _ command: Command,
        from entry: String? = nil,
        describedAs description: (kind: String?, id: String?, payload: JSONValue?),
        on thread: SendingThread
    ) throws(ChainError) -> Trace {
        let thread = thread.state
        let chain = core.currentSnapshot(thread: thread)
        let start = try chain.entryIndex(entry)
        var hops = TracedHops(chain: chain, entry: start, thread: thread)
        _ = try? Self.walk(chain, command, from: start, observer: &hops)
        return hops.trace(
            describedAs: (description.kind, description.id, description.payload, nil),
            id: thread.makeTraceID()
        )
    }

    /// Sends `command` as ``sendForTrace(_:from:describedAs:on:)`` does, and lets its trace go without taking a
    /// trace id: a replay's warm-up, which runs the same code on the same thread before anything is timed.
    package func sendToWarmUp(_ command: Command, from entry: String?, on thread: SendingThread) {
        let state = thread.state
        let chain = core.currentSnapshot(thread: state)
        guard let start = try? chain.entryIndex(entry) else { return }
        var hops = TracedHops(chain: chain, entry: start, thread: state)
        _ = try? Self.walk(chain, command, from: start, observer: &hops)
        var trace: Trace? = hops.trace(describedAs: (nil, nil, nil, nil), id: 0)
        Trace.recycle(&trace, on: thread)
    }

    /// Who would take `command` if it were sent to `entry`: asks each handler's dry-run test, runs nothing.
    public func whoWouldHandle(_ command: Command, from entry: String? = nil) throws(ChainError) -> DryRun {
        try core.dryRun(from: entry) { $0.predict(command) }
    }

    /// Walks `command` from `start` until a handler accepts (its result), one throws, or the path ends (`nil`).
    /// The command is borrowed, never copied per hop, until a handler continues with a new command; from then
    /// on the walk carries that one.
    @inlinable
    static func walk<Observer: HopObserver>(
        _ chain: CompiledChain<Handler<Command, Result>>,
        _ command: Command,
        from start: Int32,
        observer: inout Observer
    ) throws -> Result? {
        var index = start
        var hops = 0
        var carried: Command?
        while index >= 0 {
            hops += 1
            try chain.checkHopLimit(hops, at: index, &observer)
            // Fields are read one by one: copying the whole node would retain its handler on every hop.
            let outcome: HandlerTurn<Command, Result>
            if let box = chain.nodes[Int(index)].box {
                if let current = carried {
                    outcome = try turn(box, index, registry: -1, current, &observer)
                } else {
                    outcome = try turn(box, index, registry: -1, command, &observer)
                }
            } else if let current = carried {
                outcome = try registryTurn(chain, index, current, &observer)
            } else {
                outcome = try registryTurn(chain, index, command, &observer)
            }
            switch outcome {
            case .accepted(let result): return result
            case .goesOn: break
            case .goesOnWith(let replacement): carried = replacement
            }
            index = chain.nodes[Int(index)].next
        }
        return nil
    }

    /// One handler's turn. The handler's box is used without retaining it: the snapshot being walked keeps it
    /// alive. Always inlined into the walk: the optimiser's choice moved with the size of what a hop records (a
    /// parent more, and the traced walk called each turn, ~1.3 ns a hop; `Chain, traced into memory`, interleaved).
    @inlinable @inline(__always)
    static func turn<Observer: HopObserver>(
        _ box: UnsafeRawPointer,
        _ name: Int32,
        registry: Int32,
        _ command: Command,
        _ observer: inout Observer
    ) throws -> HandlerTurn<Command, Result> {
        let response: HandlerResponse<Command, Result>
        do {
            response = try UnretainedObject<Box>(pointer: box).withObject { try $0.body(command) }
        } catch {
            observer.failed(name, registry: registry, error: error)
            throw error
        }
        return observer.turn(after: response, of: name, registry: registry)
    }

    /// A registry's turn: its members in order, each getting the command the one before handed on, until one
    /// accepts or throws.
    @inlinable
    static func registryTurn<Observer: HopObserver>(
        _ chain: CompiledChain<Handler<Command, Result>>,
        _ index: Int32,
        _ command: Command,
        _ observer: inout Observer
    ) throws -> HandlerTurn<Command, Result> {
        let mark = observer.beginRegistry(index)
        defer { observer.endRegistry(mark) }
        var replaced: Command?
        for member in chain.registries[Int(chain.nodes[Int(index)].registry)] {
            switch try turn(member.box, member.name, registry: index, replaced ?? command, &observer) {
            case .accepted(let result): return .accepted(result)
            case .goesOn: break
            case .goesOnWith(let replacement): replaced = replacement
            }
        }
        return replaced.map(HandlerTurn.goesOnWith) ?? .goesOn
    }
}

extension Chain where Command: Sendable {
    /// Creates a chain of `handlers` in order, the first being the head. Its commands are `Sendable`, so a
    /// recorder that writes payloads to a trace log leaves their encoding to the log's writer, off the sending
    /// thread.
    ///
    /// - Throws: ``ChainError`` if two handlers share a name.
    public convenience init(
        _ name: String,
        handlers: [Handler<Command, Result>] = [],
        recorder: Recorder = .off
    ) throws(ChainError) {
        try self.init(
            name,
            handlers: handlers,
            recorder: recorder,
            command: CommandTypeInfo(Command.self, deferrer: SendablePayloads<Command>())
        )
    }
}
