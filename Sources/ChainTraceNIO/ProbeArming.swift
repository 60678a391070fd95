#if NIO
    import ChainTrace
    import NIOCore

    /// How one traced pipeline's probes are made, and whether they are in:
    /// ``NIOCore/ChannelPipeline/traceEventsNow(chain:messageTypes:channels:)`` puts them in at once when a recorder
    /// is in force, else leaves a ``ProbeArming`` at each end of the pipeline, which puts them in at the first event
    /// that reaches it while one is.
    final class PipelineProbes {
        let chain: String
        let messageTypes: Bool
        /// Whether the probes are in (only touched on the channel's event loop).
        var areIn = false

        init(chain: String, messageTypes: Bool) {
            self.chain = chain
            self.messageTypes = messageTypes
        }

        /// The names of the two arming handlers.
        static let headName = EventProbe.namePrefix + "arming.head"
        static let tailName = EventProbe.namePrefix + "arming.tail"

        /// Puts an arming handler at each end of `pipeline`.
        func awaitRecorder(in pipeline: ChannelPipeline) throws {
            let operations = pipeline.syncOperations
            try operations.addHandler(ProbeArming(self), name: Self.headName, position: .first)
            try operations.addHandler(ProbeArming(self), name: Self.tailName, position: .last)
        }

        /// Puts a probe in front of each of `pipeline`'s handlers (the arming handlers and any probes left out) and
        /// one after the last, in front of the tail's arming handler if it is there.
        func install(in pipeline: ChannelPipeline) throws {
            areIn = true
            let operations = pipeline.syncOperations
            let contexts = pipeline.handlerContexts()
            let handlers = contexts.filter { !$0.name.hasPrefix(EventProbe.namePrefix) }.map(\.handler)
            let plan = ProbePlan.of(handlers, messageTypes: messageTypes)
            let state = ProbeState(chain: chain, typeNames: plan.typeNames)
            for (index, handler) in handlers.enumerated() {
                let probe = plan.probes[index]
                try operations.addHandler(EventProbe(probe, state: state), name: probe.name, position: .before(handler))
            }
            let tail = plan.probes[handlers.count]
            let position: ChannelPipeline.SynchronousOperations.Position =
                if contexts.contains(where: { $0.name == Self.tailName }) {
                    .before(try operations.context(name: Self.tailName).handler)
                } else {
                    .last
                }
            try operations.addHandler(EventProbe(tail, state: state), name: tail.name, position: position)
        }
    }

    /// Waits at one end of a traced pipeline for a recorder: while none is in force, the pipeline's handlers are
    /// called as if it were not traced, and this costs one load an event at each end. At the first event that
    /// reaches it while one is in force, it puts the probes in (around the pipeline as it is then), hands the
    /// event on to them — so that event is traced whole — and then, once the event loop is done with that event,
    /// takes itself and the other end's out.
    ///
    /// An event a handler starts in the middle of the pipeline (a write from a timer) reaches only one end, after
    /// the handlers it went through: that one is traced from there, the ones after it whole.
    final class ProbeArming: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        typealias InboundOut = NIOAny
        typealias OutboundIn = NIOAny
        typealias OutboundOut = NIOAny

        let probes: PipelineProbes

        init(_ probes: PipelineProbes) {
            self.probes = probes
        }

        /// Hands the event on with `forward`, first putting the probes in if a recorder is in force and they are not.
        @inline(__always)
        private func arming(_ context: ChannelHandlerContext, _ forward: () -> Void) {
            guard !probes.areIn, ChainTracing.mayRecord else { return forward() }
            let pipeline = context.pipeline
            // A pipeline that cannot take the probes (closed under it) stays untraced.
            try? probes.install(in: pipeline)
            forward()
            // Out once the event loop is done with this event, not now: NIO may yet call this handler for the rest
            // of the same operation (the flush of a `writeAndFlush`), which a removed handler would drop.
            context.eventLoop.execute {
                let operations = pipeline.syncOperations
                for name in [PipelineProbes.headName, PipelineProbes.tailName] {
                    guard let arming = try? operations.context(name: name) else { continue }
                    operations.removeHandler(context: arming, promise: nil)
                }
            }
        }

        func channelActive(context: ChannelHandlerContext) {
            arming(context) { context.fireChannelActive() }
        }

        func channelInactive(context: ChannelHandlerContext) {
            arming(context) { context.fireChannelInactive() }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            arming(context) { context.fireChannelRead(data) }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            arming(context) { context.fireUserInboundEventTriggered(event) }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            arming(context) { context.fireErrorCaught(error) }
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            arming(context) { context.write(data, promise: promise) }
        }

        func flush(context: ChannelHandlerContext) {
            arming(context) { context.flush() }
        }
    }
#endif
