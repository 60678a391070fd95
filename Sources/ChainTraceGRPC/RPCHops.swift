#if GRPC
    import ChainTrace
    import ChainTraceDistributedTracing
    import ChainTraceFastPath
    import GRPCCore
    import Synchronization
    import Tracing

    /// One RPC's trace and what its hops need to tell each other: which handlers called `next`, which got a refusal
    /// back, and whether the refusal in flight is an answer (a hop that refused without going on) or a failure.
    /// Flags are bits by hop (a chain of more than 63 interceptors shares the last bit among the rest). Hands the
    /// trace to its recorder once: when the response has been produced or refused, or — when the transport drops
    /// the response without producing it — when the last producer holding this is released.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    final class RPCHops: Sendable {
        /// The RPC's trace, for its hops: held by ``kept`` for as long as this is.
        let trace: BoundLinearTrace
        /// The task that started the RPC's trace, the only one whose hops it records.
        private let owner: Int
        /// The names of the RPC's method in the trace.
        let names: MethodNames
        /// Whether the RPC's response type reads as its instance for `Never`, so that its hops read responses as one.
        let readsResponsesErased: Bool
        /// The RPC's trace, held until this goes, then kept for the thread's next RPC when nothing else holds it.
        private let kept: Mutex<LinearTrace?>
        /// Whether the trace has been handed to its recorder.
        private let delivered = Atomic<Bool>(false)
        private let wentOn = Atomic<UInt64>(0)
        private let refusedBelow = Atomic<UInt64>(0)
        private let refusalIsAnswer = Atomic<Bool>(false)
        /// Whether a hop closed: the first kept its context (``closed(threw:)``).
        private let aHopClosed = Atomic<Bool>(false)

        /// - Parameters:
        ///   - trace: The RPC's trace; `nil` (no hops) when it records nothing.
        ///   - names: The names of the RPC's method.
        ///   - readsResponsesErased: Whether the RPC's response type lays out as its instance for `Never`
        ///     (`StreamingServerResponse.readsErased`, `StreamingClientResponse.readsErased`).
        init?(_ trace: LinearTrace, names: MethodNames, readsResponsesErased: Bool) {
            guard let held = trace.unretained else { return nil }
            self.trace = held
            owner = trace.owner
            self.names = names
            self.readsResponsesErased = readsResponsesErased
            kept = Mutex(trace)
        }

        deinit {
            finish()
            var trace = kept.withLock { $0.take() }
            LinearTrace.recycle(&trace)
        }

        /// Whether the running task is the one that started the RPC's trace: a hop elsewhere (a task an interceptor
        /// started) must not record into it.
        var isOwnedByRunningTask: Bool { owner == currentTaskIdentity() }

        private static func bit(_ hop: Int) -> UInt64 { 1 << UInt64(min(hop, 63)) }

        /// Hop `hop`'s handler called `next`.
        func noteWentOn(_ hop: Int) { wentOn.bitwiseOr(Self.bit(hop), ordering: .relaxed) }

        /// What hop `hop`'s `next` returned was a refusal.
        func noteRefusedBelow(_ hop: Int) { refusedBelow.bitwiseOr(Self.bit(hop), ordering: .relaxed) }

        /// Hands the trace to its recorder, once, with the `ServiceContext` its deepest hop ran in bound (see
        /// ``closed(threw:)``): a span-making sink (`SpanTraceSink`) puts the RPC's span under the app's RPC span —
        /// a tracing interceptor's, which binds its span's context only around the interceptors after it — and the
        /// trace notes that span (`Trace.traceParent`) for a trace log.
        func finish() {
            guard !delivered.exchange(true, ordering: .acquiringAndReleasing) else { return }
            // A copy: ``kept`` holds the trace until this goes (a producer of the response may yet be running).
            var trace = kept.withLock { $0 }
            LinearTrace.finishInDeepestContext(&trace)
        }

        /// Keeps the `ServiceContext` the running hop ran in, if it is the RPC's first hop to close — the deepest the
        /// RPC reached, inside every interceptor that let it through — for ``finish()``.
        ///
        /// One load a hop after the first; asked of the trace at every hop, it cost about 25 instructions a hop
        /// (`chaintrace-grpc-benchmarks`, "traced"; callgrind).
        @inline(__always)
        private func keepContext() {
            guard !aHopClosed.load(ordering: .relaxed) else { return }
            aHopClosed.store(true, ordering: .relaxed)
            trace.keepDeepestContext { InstrumentationContext.current }
        }

        /// Closes the innermost open hop, its handler having thrown `error` (or returned, for `nil`).
        func closed(threw error: (any Error)?) {
            keepContext()
            trace.close(threw: error)
        }

        /// Closes hop `hop` (`nil`: the handler's, the last) now, its handler having returned a refusal `error`: the
        /// handler's refusal is its failure; one made without going on an answer (*accepted*, the status its
        /// reason); one handed on from below *passed* (an answer) or a failure passed on; one of its own after
        /// going on, its failure.
        func closeRefused(_ hop: Int?, _ error: RPCError) {
            keepContext()
            guard let hop else {
                refusalIsAnswer.store(false, ordering: .relaxed)
                return trace.close(threw: error)
            }
            let bit = Self.bit(hop)
            if wentOn.load(ordering: .relaxed) & bit == 0 {
                refusalIsAnswer.store(true, ordering: .relaxed)
                trace.closeAnswered(reason: statusText(of: error))
            } else {
                let answer =
                    refusedBelow.load(ordering: .relaxed) & bit != 0 && refusalIsAnswer.load(ordering: .relaxed)
                trace.close(threw: answer ? nil : error)
            }
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    extension RPCHops {
        /// The hops of a server's RPC, its trace on chain `chain` started now; `nil` when the recorder does not trace
        /// it (sampled or filtered out).
        static func start<Input: Sendable, Output: Sendable>(
            _ request: StreamingServerRequest<Input>,
            _ context: ServerContext,
            responding: Output.Type,
            chain: String
        ) -> RPCHops? {
            start(
                context.descriptor,
                request.metadata,
                context.remotePeer,
                chain: chain,
                readsResponsesErased: StreamingServerResponse<Output>.readsErased
            )
        }

        /// The hops of a client's call, its trace on chain `chain` started now; `nil` when the recorder does not
        /// trace it.
        static func start<Input: Sendable, Output: Sendable>(
            _ request: StreamingClientRequest<Input>,
            _ context: ClientContext,
            responding: Output.Type,
            chain: String
        ) -> RPCHops? {
            start(
                context.descriptor,
                request.metadata,
                context.remotePeer,
                chain: chain,
                readsResponsesErased: StreamingClientResponse<Output>.readsErased
            )
        }

        /// The hops of an RPC of `method` with request `metadata` from (or to) `remotePeer`.
        private static func start(
            _ method: MethodDescriptor,
            _ metadata: Metadata,
            _ remotePeer: String,
            chain: String,
            readsResponsesErased: Bool
        ) -> RPCHops? {
            let names = MethodNames.of(method)
            let command = RPCCommand(method: method, metadata: metadata, remotePeer: remotePeer, kind: names.method)
            return RPCHops(
                LinearTrace.start(command: command, chain: chain),
                names: names,
                readsResponsesErased: readsResponsesErased
            )
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    extension RPCHops {
        /// `response`, handing the trace to its recorder now when it is a refusal, else when its stream has been
        /// produced: gRPC writes a response's messages after the interceptors have returned (a server-streaming
        /// handler produces them then), recorded as a last hop of its own, `echo.Echo/Get stream`, *continued* when
        /// the stream ends and *failed* when producing it throws.
        func finishing<Output>(after response: StreamingServerResponse<Output>) -> StreamingServerResponse<Output> {
            guard case .success(var contents) = response.accepted else {
                finish()
                return response
            }
            let producer = contents.producer
            let name = names.stream
            contents.producer = { writer in
                defer { self.finish() }
                let opened = self.trace.open(name)
                do {
                    let trailers = try await producer(writer)
                    if opened { self.trace.close(threw: nil, role: .observer) }
                    return trailers
                } catch {
                    if opened { self.trace.close(threw: error, role: .observer) }
                    throw error
                }
            }
            return StreamingServerResponse(accepted: .success(contents))
        }

        /// Closes hop `hop` (`nil`: the handler's, or the call's), whose handler returned a response that is
        /// `refusal`, or an accepted one when that is `nil`.
        func close(_ hop: Int?, refusal: RPCError?) {
            if let refusal { closeRefused(hop, refusal) } else { closed(threw: nil) }
        }
    }

    /// `unauthenticated: no token`: an RPC error's code and message, as a hop's reason.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func statusText(of error: RPCError) -> String {
        error.message.isEmpty ? "\(error.code)" : "\(error.code): \(error.message)"
    }

    /// What gRPC makes of an error thrown between two interceptors: a refusal with its status.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func refusal(for error: any Error) -> RPCError {
        switch error {
        case let error as RPCError: error
        case let error as any RPCErrorConvertible: RPCError(error)
        default: RPCError(code: .unknown, message: "", cause: error)
        }
    }

    /// An interceptor's name in traces: its type's name without module or generic arguments.
    func handlerName(of value: Any) -> String {
        let full = String(describing: type(of: value))
        return String(full.prefix { $0 != "<" })
    }
#endif
