import CChainTraceSupport

/// A chain of responsibility whose handlers may suspend: sign-up flows, request pipelines.
///
/// Works like ``Chain``; each command's hops are recorded in its own trace however many sends run at once.
///
/// ```swift
/// let signUp = try AsyncChain<SignUpForm, Account>("sign-up", handlers: [checkUsername, createAccount, save])
/// signUp.recorder = Recorder(sink: sink)
/// let account = try await signUp.send(form)
/// ```
public final class AsyncChain<Command, Result>: @unchecked Sendable, CustomDebugStringConvertible {
    /// The structure, recorder and snapshots; every edit goes through it.
    @usableFromInline let core: ChainBase<AsyncHandler<Command, Result>>

    /// Creates a chain of `handlers` in order, the first being the head.
    ///
    /// - Throws: ``ChainError`` if two handlers share a name.
    public convenience init(
        _ name: String,
        handlers: [AsyncHandler<Command, Result>] = [],
        recorder: Recorder = .off
    ) throws(ChainError) {
        try self.init(name, handlers: handlers, recorder: recorder, command: CommandTypeInfo(Command.self))
    }

    /// Creates a chain whose commands' type is described by `command`.
    init(
        _ name: String,
        handlers: [AsyncHandler<Command, Result>],
        recorder: Recorder,
        command: CommandTypeInfo
    ) throws(ChainError) {
        core = try ChainBase(name: name, handlers: handlers, recorder: recorder, command: command, boxOf: { $0.box })
    }

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
    public func append(_ handler: AsyncHandler<Command, Result>) throws(ChainError) { try core.append(handler) }

    /// Adds `handler` at `position`.
    public func insert(_ handler: AsyncHandler<Command, Result>, at position: ChainPosition) throws(ChainError) {
        try core.insert(handler, at: position)
    }

    /// Adds `handler` to a tree: it forwards to `next` (a node already in the chain), or ends its path when `nil`.
    /// The first node added to an empty chain becomes its head.
    public func add(_ handler: AsyncHandler<Command, Result>, next: String?) throws(ChainError) {
        try core.add(handler, next: next)
    }

    /// Removes the named handler or registry; whatever led to it now leads where it led. Removing the head makes
    /// the node it led to the head; a head that led nowhere (an entry of a tree) hands over to the first node
    /// left, in the order they were added, that no other forwards to.
    public func remove(_ name: String) throws(ChainError) { try core.remove(name) }

    /// Puts `handler` in the named handler's place, keeping its links.
    public func replace(_ name: String, with handler: AsyncHandler<Command, Result>) throws(ChainError) {
        try core.replace(name, with: handler)
    }

    /// Makes the named node forward to `next` (`nil`: end of path). Like setting a responder's `nextResponder`,
    /// this can close a loop; a loop is stopped at run time with a ``ChainError`` naming its handlers.
    public func link(_ name: String, to next: String?) throws(ChainError) { try core.link(name, to: next) }

    /// Adds a registry — an internal chain of late responders ordered by weight — at `position`.
    @discardableResult
    public func addRegistry(_ name: String, at position: ChainPosition = .last) throws(ChainError) -> Registry<
        AsyncHandler<Command, Result>
    > {
        try core.addRegistry(name, at: position)
    }

    /// Adds a registry to a tree: it forwards to `next` (a node already in the chain), or ends its path when `nil`.
    @discardableResult
    public func addRegistry(_ name: String, next: String?) throws(ChainError) -> Registry<AsyncHandler<Command, Result>>
    {
        try core.addRegistry(name, next: next)
    }

    /// The registry with this name.
    public func registry(_ name: String) throws(ChainError) -> Registry<AsyncHandler<Command, Result>> {
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
    public func send(_ command: Command, from entry: String? = nil) async throws -> Result? {
        let chain = core.currentSnapshot(thread: ThreadState.current)
        let start = try chain.entryIndex(entry)
        guard
            let configuration = chain.recorder.configuration
                ?? ChainTracing.scopedConfiguration(thread: ThreadState.current, chain: { self.name }),
            configuration.admitsInTask(command, thread: ThreadState.current)
        else {
            var untraced = UntracedHops()
            return try await Self.walk(chain, command, from: start, observer: &untraced)
        }
        var hops = TracedHops(chain: chain, entry: start, thread: ThreadState.current)
        let outcome: Swift.Result<Result?, any Error>
        do {
            outcome = .success(try await Self.walk(chain, command, from: start, observer: &hops))
        } catch {
            outcome = .failure(error)
        }
        // The id comes from whichever thread the task finishes on; ids stay unique either way.
        let trace = hops.trace(
            of: command,
            over: chain,
            capturing: configuration.payloadCapture,
            id: ThreadState.current.makeTraceID()
        )
        configuration.record(trace, on: ThreadState.current)
        return try outcome.get()
    }

    /// Who would take `command` if it were sent to `entry`: asks each handler's dry-run test, runs nothing.
    public func whoWouldHandle(_ command: Command, from entry: String? = nil) throws(ChainError) -> DryRun {
        try core.dryRun(from: entry) { $0.predict(command) }
    }

    @inlinable
    static func walk<Observer: HopObserver>(
        _ chain: CompiledChain<AsyncHandler<Command, Result>>,
        _ command: Command,
        from start: Int32,
        observer: inout Observer
    ) async throws -> Result? {
        var command = command
        var index = start
        var hops = 0
        while index >= 0 {
            hops += 1
            try chain.checkHopLimit(hops, at: index, &observer)
            let node = chain.nodes[Int(index)]
            if let handler = node.handler {
                if let result = try await step(handler, index, registry: -1, &command, &observer) { return result }
            } else {
                let mark = observer.beginRegistry(index)
                defer { observer.endRegistry(mark) }
                for member in chain.registries[Int(node.registry)] {
                    if let result = try await step(member.handler, member.name, registry: index, &command, &observer) {
                        return result
                    }
                }
            }
            index = node.next
        }
        return nil
    }

    @inlinable
    static func step<Observer: HopObserver>(
        _ handler: AsyncHandler<Command, Result>,
        _ name: Int32,
        registry: Int32,
        _ command: inout Command,
        _ observer: inout Observer
    ) async throws -> Result? {
        let response: HandlerResponse<Command, Result>
        do {
            response = try await handler.body(command)
        } catch {
            observer.failed(name, registry: registry, error: error)
            throw error
        }
        switch observer.turn(after: response, of: name, registry: registry) {
        case .accepted(let result): return result
        case .goesOn: return nil
        case .goesOnWith(let replacement):
            command = replacement
            return nil
        }
    }
}

extension AsyncChain where Command: Sendable {
    /// Creates a chain of `handlers` in order, the first being the head. Its commands are `Sendable`, so a
    /// recorder that writes payloads to a trace log leaves their encoding to the log's writer, off the sending
    /// thread.
    ///
    /// - Throws: ``ChainError`` if two handlers share a name.
    public convenience init(
        _ name: String,
        handlers: [AsyncHandler<Command, Result>] = [],
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
