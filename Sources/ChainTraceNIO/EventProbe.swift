#if NIO
    import ChainTrace
    import ChainTraceFastPath
    import NIOCore

    /// What the probes of one traced channel share: the hops open on its event loop, innermost last, and what each
    /// hop's handler did that the probe after it saw.
    ///
    /// A channel's probes run on its event loop only, one event inside another, so no two accesses to the open
    /// hops overlap: they are kept in ``UncheckedCell``s, which Swift does not check for exclusivity at run time,
    /// and each hop is a plain value (message types are numbers into ``typeNames``), which costs no reference
    /// counting to open and close. What that buys: about 450 instructions a traced handler-event
    /// (`chaintrace-nio-benchmarks`, "traceEventsNow(), traced into memory"; callgrind).
    final class ProbeState {
        /// One open hop.
        struct Frame {
            /// The event the hop's handler was handed.
            let event: EventKind
            /// The type of the message it was handed (a read or a write), when known.
            let receivedType: MessageType
            /// The type of the message it hands on, as it declares it (`InboundOut`, `OutboundOut`), else the
            /// type it was handed.
            let sentType: MessageType
            /// The type of the message it passed on, when other than what it was handed.
            var forwardedType = MessageType.unknown
            /// Whether it raised an error while handling another event (fired `errorCaught` on): the error is in
            /// ``ProbeState/raised`` under the frame's depth.
            var raised = false
            /// Whether it handed an event on in the same direction (inbound while handling an inbound one).
            var wentOn = false
            /// Whether it sent an event the other way: a write or flush while handling a read — an answer.
            var answered = false
        }

        let chain: String
        /// The names of the message types the probes declare, by ``MessageType/index``.
        let typeNames: [String]
        /// The open hops, innermost last; in a buffer of plain values, which an array's uniqueness checks and
        /// bounds-checked removal cost about 50 instructions a hop more than.
        let frames = UncheckedCell.make(PlainValueBuffer<Frame>(capacity: 8))
        /// The errors open hops raised, by the depth of the hop's frame.
        let raised = UncheckedCell.make([Int: any Error]())
        /// The trace of the event a probe of this channel is tracing, while its handler has it: the probes it reaches
        /// next open their hops on it (see ``EventProbe``).
        let eventTrace = UncheckedCell.make(ThreadTraceHandle?.none)

        init(chain: String, typeNames: [String]) {
            self.chain = chain
            self.typeNames = typeNames
        }

        /// The name of message type `type`.
        func name(of type: MessageType) -> String { typeNames[Int(type.index)] }

        /// Opens the frame of a hop handed `event` on its way to a handler that declares it `takes` and `sends`
        /// message types (for a read or a write), noting the type of the message it carries: the one the handler
        /// takes, else the one the handler whose hop it is inside hands on. Notes what that handler did: passed the
        /// event on (as another type?), or answered it.
        static func open(
            _ event: EventKind,
            takes: MessageType,
            sends: MessageType,
            in frames: inout PlainValueBuffer<Frame>
        ) {
            var received = event.carriesMessage ? takes : .unknown
            // Read, changed and written back whole: one write to the array.
            if !frames.isEmpty {
                var outer = frames[frames.count - 1]
                if outer.event.isOutbound == event.isOutbound {
                    outer.wentOn = true
                } else {
                    outer.answered = true
                }
                if outer.event == event {
                    if !received.isKnown { received = outer.sentType }
                    // Another type only if both are known: a handler taking `NIOAny` first in line changes nothing.
                    if received.isKnown, outer.receivedType.isKnown, outer.receivedType != received {
                        outer.forwardedType = received
                    }
                }
                frames[frames.count - 1] = outer
            }
            let sent = !event.carriesMessage ? .unknown : sends.isKnown ? sends : received
            frames.append(Frame(event: event, receivedType: received, sentType: sent))
        }

        /// Closes the innermost frame. If its handler raised an error (``Frame/raised``), ``takeRaised()`` hands it
        /// back, and must be called.
        @inline(__always)
        func close() -> Frame {
            // A hop closes only the frame it opened.
            frames.value.popLast()!
        }

        /// The error the handler of the frame just closed raised. Out of line: rare.
        @inline(never)
        func takeRaised() -> (any Error)? {
            raised.value.removeValue(forKey: frames.value.count)
        }

        /// Notes that the innermost open hop's handler raised `error`, unless that hop is itself an `errorCaught`.
        func noteRaised(_ error: any Error) {
            let last = frames.value.count - 1
            guard last >= 0, frames.value[last].event != .errorCaught else { return }
            frames.value[last].raised = true
            raised.value[last] = error
        }
    }

    /// A message type a probe names, as a number into its ``ProbeState/typeNames``, or ``unknown``: a hop's frame
    /// holds no string, and no optional (which took more instructions to copy than the rest of a frame's opening).
    struct MessageType: Equatable, Sendable {
        let index: UInt32

        /// No type: an event that carries no message, or one whose type no handler declares.
        static let unknown = MessageType(index: .max)

        var isKnown: Bool { index != .max }
    }

    /// The message types' names of one traced pipeline, each given a number once, as the probes go in.
    struct MessageTypeTable {
        private(set) var names: [String] = []
        private var indices: [String: MessageType] = [:]

        /// `name`'s number, given it if it has none yet; ``MessageType/unknown`` for `nil`.
        mutating func type(named name: String?) -> MessageType {
            guard let name else { return .unknown }
            if let known = indices[name] { return known }
            let type = MessageType(index: UInt32(names.count))
            names.append(name)
            indices[name] = type
            return type
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
    /// declares it takes and hands on that way (`unknown`: a type it leaves open — `NIOAny`, `Any` — or, for what it
    /// hands on, one it does not change), with the name of the one it takes for an event's command.
    struct ProbedHandler: Sendable {
        let name: String
        let takes: MessageType
        let takesName: String?
        let sends: MessageType
        /// The command kinds of a read and of a write that reach it first (`channelRead ByteBuffer`), made once with
        /// the plan rather than once an event (see `ChannelEvent.kind`).
        private let readKind: String
        private let writeKind: String

        init(name: String, takes: MessageType = .unknown, takesName: String? = nil, sends: MessageType = .unknown) {
            self.name = name
            self.takes = takes
            self.takesName = takesName
            self.sends = sends
            readKind = ChannelEvent.kind(of: EventKind.channelRead.rawValue, carrying: takesName)
            writeKind = ChannelEvent.kind(of: EventKind.write.rawValue, carrying: takesName)
        }

        /// The command of `event` through `channel` when it reaches this handler first.
        func command(for event: EventKind, through channel: any Channel) -> ChannelEvent {
            let kind =
                switch event {
                case .channelRead: readKind
                case .write: writeKind
                default: event.rawValue
                }
            return ChannelEvent(
                event: event.rawValue,
                messageType: event.carriesMessage ? takesName : nil,
                kind: kind,
                channel: channel
            )
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

        /// The probe `plan` describes, of a pipeline whose probes share `state`.
        init(_ plan: ProbePlan.Probe, state: ProbeState) {
            inbound = plan.inbound
            outboundWrite = plan.outboundWrite
            outboundFlush = plan.outboundFlush
            isTail = plan.isTail
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
            // No recorder in force: forwarded as is.
            guard let handler, ChainTracing.mayRecord else { return forward() }
            let state = state
            // Inside an event of this channel's that a probe before it traces, still the thread's trace (not a side
            // call's, made by a handler): its hop opens on that trace directly.
            if let trace = state.eventTrace.value, trace.isThreadsTrace {
                guard trace.open(handler.name) else { return forward() }
                record(event, to: handler, in: trace, forward)
                return trace.close()
            }
            // Inside an event the recorder chose not to trace (sampled out), `traceHop` runs the body untraced without
            // making a command. The command is made only for an event whose trace starts here: the message's type is
            // what the handler takes. (A closure written in the call: one kept in a variable first was allocated at
            // every hop.)
            traceHop(
                handler.name,
                makingCommand: { handler.command(for: event, through: context.channel) },
                chain: state.chain
            ) { isInThreadTrace in
                // An event sampled out (or filtered out) runs its handlers untraced: nothing to note.
                guard isInThreadTrace, let trace = ThreadTraceHandle.current else { return forward() }
                // The probes after it, which its handler hands the event on to, open their hops on the trace. (A
                // probe of this channel's may already have an event traced — a side call's hop is in another.)
                let outer = state.eventTrace.value
                state.eventTrace.value = trace
                defer { state.eventTrace.value = outer }
                record(event, to: handler, in: trace, forward)
            }
        }

        /// Runs `forward` inside the hop just opened for `handler` in `trace`, noting what the handler did with
        /// `event`, and decides the hop from it (left open: its opener closes it).
        @inline(__always)
        private func record(
            _ event: EventKind,
            to handler: ProbedHandler,
            in trace: ThreadTraceHandle,
            _ forward: () -> Void
        ) {
            ProbeState.open(event, takes: handler.takes, sends: handler.sends, in: &state.frames.value)
            forward()
            let frame = state.close()
            let raised = frame.raised ? state.takeRaised() : nil
            if isTail && !event.isOutbound {
                trace.decide(.passed, reason: "reached the pipeline's tail: no handler took it")
            } else if let raised {
                trace.decide(.failed, reason: "raised \(raised)")
            } else if frame.answered && !frame.wentOn {
                // Its writes are hops inside its own, yet it passed nothing on: it took the event.
                trace.decide(.accepted, reason: "answered")
            } else if frame.forwardedType.isKnown {
                trace.decide(.passed, reason: "as \(state.name(of: frame.forwardedType))")
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
            if ChainTracing.mayRecord { state.noteRaised(error) }
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
