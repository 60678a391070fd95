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
public final class AsyncChain<Command, Result>: ChainBase<AsyncHandler<Command, Result>>, @unchecked Sendable {
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
        try super.init(name: name, handlers: handlers, recorder: recorder, command: command, boxOf: { $0.box })
    }

    /// Sends `command` into the chain at `entry` (by default the head).
    ///
    /// - Returns: The accepting handler's result, or `nil` if the command fell off the end.
    /// - Throws: Whatever a handler threw (the trace marks it failed), or ``ChainError`` for an unknown entry or
    ///   a loop.
    @inlinable
    @discardableResult
    public func send(_ command: Command, from entry: String? = nil) async throws -> Result? {
        let chain = currentSnapshot(thread: ThreadState.current)
        let start = try chain.entryIndex(entry)
        guard let configuration = chain.recorder.configuration ?? ChainTracing.scopedConfiguration(thread: ThreadState.current),
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
            of: command, over: chain, capturing: configuration.payloadCapture, id: ThreadState.current.makeTraceID())
        configuration.record(trace, on: ThreadState.current)
        return try outcome.get()
    }

    /// Who would take `command` if it were sent to `entry`: asks each handler's dry-run test, runs nothing.
    public func whoWouldHandle(_ command: Command, from entry: String? = nil) throws(ChainError) -> DryRun {
        try dryRun(from: entry) { $0.predict(command) }
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
