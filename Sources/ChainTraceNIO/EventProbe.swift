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
            /// The type of the message it was handed (a read or a write).
            let receivedType: String?
            /// The type of the message it passed on, when other than what it was handed.
            var forwardedType: String?
            /// An error it raised while handling another event (it fired `errorCaught` on).
            var raised: (any Error)?
        }

        let chain: String
        /// Whether reads' and writes' message types are read (by reflection: about a microsecond a hop).
        let recordsTypes: Bool
        var frames: [Frame] = []
        /// Message types' names, by type: naming a type costs a demangling, finding it here a lookup.
        var typeNames: [ObjectIdentifier: String] = [:]

        init(chain: String, recordsTypes: Bool) {
            self.chain = chain
            self.recordsTypes = recordsTypes
        }
    }

    /// The events a probe traces.
    enum EventKind: String {
        case channelActive, channelInactive, channelRead, userInboundEventTriggered, errorCaught
        case write, flush

        var isOutbound: Bool { self == .write || self == .flush }
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

        /// The handler after it, which inbound events reach next (`nil`: none, or one that handles no inbound
        /// events); for the probe at the tail, `nil`.
        let inboundHandler: String?
        /// The handler before it, which outbound events reach next (`nil`: none, or one that handles no outbound
        /// events; the channel itself for the probe at the head: `Channel`), without the event.
        let outboundHandler: String?
        /// Whether inbound events go on to the pipeline's tail from here: past every handler, unhandled.
        let isTail: Bool
        let state: ProbeState

        /// The hop names of the outbound events it sees: `Encoder (write)`, `Encoder (flush)`.
        let outboundWrite: String?
        let outboundFlush: String?

        init(inbound: String?, outbound: String?, isTail: Bool, state: ProbeState) {
            inboundHandler = inbound
            outboundHandler = outbound
            outboundWrite = outbound.map { "\($0) (write)" }
            outboundFlush = outbound.map { "\($0) (flush)" }
            self.isTail = isTail
            self.state = state
        }

        /// Runs `forward` — handing `event` on to `handler` — as a hop named `handler` when the event is traced.
        @inline(__always)
        private func hop(
            _ handler: String?,
            _ event: EventKind,
            message: NIOAny?,
            context: ChannelHandlerContext,
            _ forward: () -> Void
        ) {
            guard let handler, ChainTracing.mayRecord else { return forward() }
            let state = state
            var type: String?
            if state.recordsTypes, let message { type = messageTypeName(message, names: &state.typeNames) }
            // What the handler before it did with the event: passed it on, as another type?
            if let type, let last = state.frames.indices.last, state.frames[last].event == event,
                state.frames[last].receivedType != type
            {
                state.frames[last].forwardedType = type
            }
            let command = ChannelEvent(event: event.rawValue, messageType: type, channel: context.channel)
            let isTail = isTail && !event.isOutbound
            traceHop(handler, command: command, chain: state.chain) {
                state.frames.append(ProbeState.Frame(event: event, receivedType: type))
                forward()
                let frame = state.frames.removeLast()
                if isTail {
                    ChainTracing.decide(.passed, reason: "reached the pipeline's tail: no handler took it")
                } else if let raised = frame.raised {
                    ChainTracing.decide(.failed, reason: "raised \(raised)")
                } else if let forwarded = frame.forwardedType {
                    ChainTracing.decide(.passed, reason: "as \(forwarded)")
                }
            }
        }

        func channelActive(context: ChannelHandlerContext) {
            hop(inbound, .channelActive, message: nil, context: context) { context.fireChannelActive() }
        }

        func channelInactive(context: ChannelHandlerContext) {
            hop(inbound, .channelInactive, message: nil, context: context) { context.fireChannelInactive() }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            hop(inbound, .channelRead, message: data, context: context) { context.fireChannelRead(data) }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            hop(inbound, .userInboundEventTriggered, message: nil, context: context) {
                context.fireUserInboundEventTriggered(event)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // An error the handler before it raised while it handled another event: that hop failed.
            if ChainTracing.mayRecord, let last = state.frames.indices.last, state.frames[last].event != .errorCaught {
                state.frames[last].raised = error
            }
            hop(inbound, .errorCaught, message: nil, context: context) { context.fireErrorCaught(error) }
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            hop(outboundWrite, .write, message: data, context: context) {
                context.write(data, promise: promise)
            }
        }

        func flush(context: ChannelHandlerContext) {
            hop(outboundFlush, .flush, message: nil, context: context) { context.flush() }
        }

        /// The hop inbound events make from here: the handler after it, or at the tail `unhandled` — an event no
        /// handler took, which NIO's tail drops.
        private var inbound: String? { isTail ? "unhandled" : inboundHandler }
    }

    /// `ByteBuffer`, `HTTPServerRequestPart`: the type of the message `data` wraps. NIO keeps it to itself (its
    /// description starts with it), so it is read by reflection — only for traced events — and named once a type
    /// (`names`).
    func messageTypeName(_ data: NIOAny, names: inout [ObjectIdentifier: String]) -> String {
        guard let storage = Mirror(reflecting: data).children.first?.value,
            let payload = Mirror(reflecting: storage).children.first
        else { return "?" }
        switch payload.label {
        case "ioData":
            return Mirror(reflecting: payload.value).children.first?.label == "fileRegion" ? "FileRegion" : "ByteBuffer"
        case "bufferEnvelope": return "AddressedEnvelope<ByteBuffer>"
        default:
            let messageType = type(of: payload.value)
            if let name = names[ObjectIdentifier(messageType)] { return name }
            let full = String(describing: messageType)
            let name = String(full.prefix { $0 != "<" })
            names[ObjectIdentifier(messageType)] = name
            return name
        }
    }
#endif
