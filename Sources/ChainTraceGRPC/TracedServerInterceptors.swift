#if GRPC
    import ChainTrace
    import GRPCCore
    import Synchronization

    /// The trace of an RPC and what its hops need to tell each other, set by the first link of a traced interceptor
    /// chain around the rest of it (``current``); the interceptors' hops open and close on it.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    final class RPCTrace: Sendable {
        /// The trace of the RPC the current task serves or calls.
        @TaskLocal static var current: RPCTrace?

        let trace: CarriedTrace
        /// Whether the last refusal a hop returned was an answer (a hop that refused without going on) rather than a
        /// failure (an endpoint's refusal): a hop that hands a refusal on passed an answer, or passed a failure on.
        fileprivate let refusalWasAnswer = Atomic<Bool>(false)

        init(_ trace: CarriedTrace) {
            self.trace = trace
        }

        /// Closes the innermost hop, whose handler returned `response` (`wentOn`: it called `next`, and
        /// `refusedBelow`: what `next` returned was a refusal). A refusal made without going on is *accepted* with the
        /// status as its reason — an endpoint's refusal is its failure; a refusal handed on from below is *passed*
        /// (an answer) or a failure passed on; a refusal of its own after going on, its failure. An accepted
        /// response closes the hop when its stream has been produced, so that the hop covers the response it
        /// answered with.
        func closingHop<Output>(
            after response: StreamingServerResponse<Output>,
            wentOn: WentOn?,
            isEndpoint: Bool
        ) -> StreamingServerResponse<Output> {
            switch response.accepted {
            case .failure(let error):
                closeHop(refused: error, wentOn: wentOn, isEndpoint: isEndpoint)
                return response
            case .success(var contents):
                let producer = contents.producer
                let trace = trace
                contents.producer = { writer in
                    do {
                        let trailers = try await producer(writer)
                        trace.close(threw: nil)
                        return trailers
                    } catch {
                        trace.close(threw: error)
                        throw error
                    }
                }
                return StreamingServerResponse(accepted: .success(contents))
            }
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    extension RPCTrace {
        /// Closes the innermost hop now, its handler having returned a response that was refused with `refused`
        /// (as ``closingHop(after:wentOn:isEndpoint:)`` says), or accepted (`nil`: a client's hop, which ends at the
        /// response's head).
        func closeHop(refused: RPCError?, wentOn: WentOn?, isEndpoint: Bool) {
            guard let error = refused else { return trace.close(threw: nil) }
            if isEndpoint {
                refusalWasAnswer.store(false, ordering: .relaxed)
                trace.close(threw: error)
            } else if let wentOn, wentOn.happened {
                let answer = wentOn.refusedBelow && refusalWasAnswer.load(ordering: .relaxed)
                trace.close(threw: answer ? nil : error)
            } else {
                refusalWasAnswer.store(true, ordering: .relaxed)
                trace.closeAnswered(reason: statusText(of: error))
            }
        }
    }

    /// Whether a hop's handler called `next`, and whether what came back was a refusal; set from the `next` it was
    /// handed, which may run in another task.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    final class WentOn: Sendable {
        private let called = Atomic<Bool>(false)
        private let refused = Atomic<Bool>(false)

        func note() { called.store(true, ordering: .relaxed) }

        func noteRefusal() { refused.store(true, ordering: .relaxed) }

        var happened: Bool { called.load(ordering: .relaxed) }

        var refusedBelow: Bool { refused.load(ordering: .relaxed) }
    }

    /// Hands `trace` to its recorder once, from whichever comes first: the end of the response stream, or — when the
    /// transport drops the response without running it — the release of the producer that holds this.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    final class FinishOnce: Sendable {
        private let trace: CarriedTrace
        private let finished = Atomic<Bool>(false)

        init(_ trace: CarriedTrace) {
            self.trace = trace
        }

        func finish() {
            guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
            trace.finish()
        }

        deinit { finish() }
    }

    /// `unauthenticated: no token`: an RPC error's code and message, as a hop's reason.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func statusText(of error: RPCError) -> String {
        error.message.isEmpty ? "\(error.code)" : "\(error.code): \(error.message)"
    }

    /// The first link of a traced server chain, not a hop: starts the RPC's trace, runs the rest of the chain with
    /// it, and hands it to the recorder when the response has been produced (or refused).
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct ServerTraceStart: ServerInterceptor {
        let chain: String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            let command = RPCCommand(
                method: context.descriptor,
                metadata: request.metadata,
                remotePeer: context.remotePeer
            )
            guard let trace = CarriedTrace.start(command: command, chain: chain) else {
                return try await next(request, context)
            }
            let once = FinishOnce(trace)
            let response: StreamingServerResponse<Output>
            do {
                response = try await RPCTrace.$current.withValue(RPCTrace(trace)) { try await next(request, context) }
            } catch {
                once.finish()
                throw error
            }
            guard case .success(var contents) = response.accepted else {
                once.finish()
                return response
            }
            let producer = contents.producer
            contents.producer = { writer in
                defer { once.finish() }
                return try await producer(writer)
            }
            return StreamingServerResponse(accepted: .success(contents))
        }
    }

    /// A server interceptor as a hop of the RPC's trace.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct TracedServerInterceptor: ServerInterceptor {
        /// The interceptor as the app gave it.
        let wrapped: any ServerInterceptor
        /// Its name in traces: its type's name without generic arguments.
        let name: String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard let rpc = RPCTrace.current, rpc.trace.open(name) else {
                return try await wrapped.intercept(request: request, context: context, next: next)
            }
            let wentOn = WentOn()
            let response: StreamingServerResponse<Output>
            do {
                response = try await wrapped.intercept(request: request, context: context) { request, context in
                    wentOn.note()
                    let response = try await next(request, context)
                    if case .failure = response.accepted { wentOn.noteRefusal() }
                    return response
                }
            } catch {
                rpc.trace.close(threw: error)
                throw error
            }
            return rpc.closingHop(after: response, wentOn: wentOn, isEndpoint: false)
        }
    }

    /// The last link of a traced server chain: the service's handler for the method, a hop named by the method
    /// (`echo.Echo/Get`). *Accepted* when it answers, *failed* when it throws or refuses.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct ServerHandlerHop: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard let rpc = RPCTrace.current, rpc.trace.open(context.descriptor.fullyQualifiedMethod) else {
                return try await next(request, context)
            }
            let response: StreamingServerResponse<Output>
            do {
                response = try await next(request, context)
            } catch {
                rpc.trace.close(threw: error)
                throw error
            }
            return rpc.closingHop(after: response, wentOn: nil, isEndpoint: true)
        }
    }

    /// An interceptor's name in traces: its type's name without module or generic arguments.
    func handlerName(of value: Any) -> String {
        let full = String(describing: type(of: value))
        return String(full.prefix { $0 != "<" })
    }
#endif
