#if NIO
    import ChainTrace
    import NIOCore

    /// What the probes of one traced channel share: the hops open on its event loop, innermost last, and what each
    /// hop's handler did that the probe after it saw.
    final class ProbeState {
        /// One open hop.
        struct Frame {
            /// The event the hop's handler was handed.
            let event: EventKind
            /// The type of the message it was handed (a read or a write), when known.
            let receivedType: String?
            /// The type of the message it hands on, as it declares it (`InboundOut`, `OutboundOut`), else the
            /// type it was handed.
            let sentType: String?
            /// The type of the message it passed on, when other than what it was handed.
            var forwardedType: String?
            /// An error it raised while handling another event (it fired `errorCaught` on).
            var raised: (any Error)?
            /// Whether it handed an event on in the same direction (inbound while handling an inbound one).
            var wentOn = false
            /// Whether it sent an event the other way: a write or flush while handling a read — an answer.
            var answered = false
        }

        let chain: String
        var frames: [Frame] = []

        init(chain: String) {
            self.chain = chain
        }

        /// Opens the frame of a hop handed `event` on its way to `handler` and returns the type of the message it
        /// carries (for a read or a write): the type the handler declares it takes, else the type the handler
        /// whose hop it is inside hands on. Notes what that handler did: passed the event on (as another type?), or
        /// answered it. One access to `frames`: each access to a class's stored property is checked for
        /// exclusivity at run time.
        static func open(_ event: EventKind, to handler: ProbedHandler, in frames: inout [Frame]) {
            var received = event.carriesMessage ? handler.takes : nil
            if let last = frames.indices.last {
                if frames[last].event.isOutbound == event.isOutbound {
                    frames[last].wentOn = true
                } else {
                    frames[last].answered = true
                }
                if frames[last].event == event {
                    received = received ?? frames[last].sentType
                    // Another type only if both are known: a handler taking `NIOAny` first in line changes nothing.
                    if let received, let handed = frames[last].receivedType, handed != received {
                        frames[last].forwardedType = received
                    }
                }
            }
            let sent = event.carriesMessage ? handler.sends ?? received : nil
            frames.append(Frame(event: event, receivedType: received, sentType: sent))
        }
    }

    /// The events a probe traces.
    enum EventKind: String {
        case channelActive, channelInactive, channelRead, userInboundEventTriggered, errorCaught
        case write, flush

        var isOutbound: Bool { self == .write || self == .flush }
        /// Whether the event carries a message, whose type the trace names.
        var carriesMessage: Bool { self == .channelRead || self == .write }
    }

    /// The handler a probe hands events on to in one direction: its name in traces, and the message types it
    /// declares it takes and hands on that way (`nil`: a type it leaves open — `NIOAny`, `Any` — or, for what it
    /// hands on, one it does not change).
    struct ProbedHandler {
        let name: String
        let takes: String?
        let sends: String?

        init(name: String, takes: String? = nil, sends: String? = nil) {
            self.name = name
            self.takes = takes
            self.sends = sends
        }
    }

    /// Sits in front of a handler of a traced pipeline (head side), seeing every event that reaches the handler in
    /// either direction: an inbound event is about to reach the handler after it, an outbound one has just left it
    /// for the handler before it. Each event the probe hands on is a hop of the event's trace, named by the handler
    /// that handles it next — nested in the hop of the handler that passed it on, so one event's trace holds every
    /// handler it went through, and what they made of it.
    final class EventProbe: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        typealias InboundOut = NIOAny
        typealias OutboundIn = NIOAny
        typealias OutboundOut = NIOAny

        /// The handler inbound events reach next (`nil`: the one after it handles none); at the tail, `unhandled`.
        let inbound: ProbedHandler?
        /// The handler before it, which outbound events reach next (`nil`: none, or one that handles no outbound
        /// events; the channel itself for the probe at the head: `Channel`), named by the event:
        /// `Encoder (write)`, `Encoder (flush)`.
        let outboundWrite: ProbedHandler?
        let outboundFlush: ProbedHandler?
        /// Whether inbound events go on to the pipeline's tail from here: past every handler, unhandled.
        let isTail: Bool
        let state: ProbeState

        init(inbound: ProbedHandler?, outbound: ProbedHandler?, isTail: Bool, state: ProbeState) {
            self.inbound = isTail ? ProbedHandler(name: "unhandled") : inbound
            outboundWrite = outbound.map { ProbedHandler(name: "\($0.name) (write)", takes: $0.takes, sends: $0.sends) }
            outboundFlush = outbound.map { ProbedHandler(name: "\($0.name) (flush)") }
            self.isTail = isTail
            self.state = state
        }

        /// Runs `forward` — handing `event` on to `handler` — as a hop named by `handler` when the event is traced.
        @inline(__always)
        private func hop(
            to handler: ProbedHandler?,
            _ event: EventKind,
            context: ChannelHandlerContext,
            _ forward: () -> Void
        ) {
            // No recorder in force, or inside an event the recorder chose not to trace (sampled out): forwarded
            // as is, without a command made for a hop that would not be recorded.
            guard let handler, ChainTracing.mayRecord, !ChainTracing.skipsSynchronousHops else { return forward() }
            let state = state
            // The kind of an event whose trace starts here: the message's type is what the handler takes.
            let command = ChannelEvent(
                event: event.rawValue,
                messageType: event.carriesMessage ? handler.takes : nil,
                channel: context.channel
            )
            let isTail = isTail && !event.isOutbound
            traceHop(handler.name, command: command, chain: state.chain) {
                // An event sampled out (or filtered out) runs its handlers untraced: nothing to note.
                guard ChainTracing.isInSynchronousTrace else { return forward() }
                ProbeState.open(event, to: handler, in: &state.frames)
                forward()
                let frame = state.frames.removeLast()
                if isTail {
                    ChainTracing.decide(.passed, reason: "reached the pipeline's tail: no handler took it")
                } else if let raised = frame.raised {
                    ChainTracing.decide(.failed, reason: "raised \(raised)")
                } else if frame.answered && !frame.wentOn {
                    // Its writes are hops inside its own, yet it passed nothing on: it took the event.
                    ChainTracing.decide(.accepted, reason: "answered")
                } else if let forwarded = frame.forwardedType {
                    ChainTracing.decide(.passed, reason: "as \(forwarded)")
                }
            }
        }

        func channelActive(context: ChannelHandlerContext) {
            hop(to: inbound, .channelActive, context: context) { context.fireChannelActive() }
        }

        func channelInactive(context: ChannelHandlerContext) {
            hop(to: inbound, .channelInactive, context: context) { context.fireChannelInactive() }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            hop(to: inbound, .channelRead, context: context) { context.fireChannelRead(data) }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            hop(to: inbound, .userInboundEventTriggered, context: context) {
                context.fireUserInboundEventTriggered(event)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // An error the handler before it raised while it handled another event: that hop failed.
            if ChainTracing.mayRecord, let last = state.frames.indices.last, state.frames[last].event != .errorCaught {
                state.frames[last].raised = error
            }
            hop(to: inbound, .errorCaught, context: context) { context.fireErrorCaught(error) }
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            hop(to: outboundWrite, .write, context: context) { context.write(data, promise: promise) }
        }

        func flush(context: ChannelHandlerContext) {
            hop(to: outboundFlush, .flush, context: context) { context.flush() }
        }
    }
#endif
