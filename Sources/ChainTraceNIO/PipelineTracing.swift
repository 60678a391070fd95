#if NIO
    public import ChainTrace
    public import NIOCore
    import Synchronization

    extension ChannelPipeline {
        /// Traces every event through the pipeline's handlers from now on: each inbound event (`channelRead`,
        /// `channelActive`, `channelInactive`, user events, `errorCaught`) and outbound one (`write`, `flush`) is a
        /// command, and each handler it reaches a hop of its trace, with no edit to any handler. Call it from any
        /// thread; it runs on the channel's event loop. See ``traceEventsNow(chain:messageTypes:channels:)``.
        public func traceEvents(
            chain: String = "nio",
            messageTypes: Bool = true,
            channels: Sampling = .all
        ) -> EventLoopFuture<Void> {
            eventLoop.submit { try self.traceEventsNow(chain: chain, messageTypes: messageTypes, channels: channels) }
        }

        /// Traces every event through the pipeline's handlers from now on, on the channel's event loop (a channel
        /// initializer runs there): ``traceEvents(chain:messageTypes:channels:)`` without the hop to the loop.
        ///
        /// A probe goes in front of each handler (and one at the tail). They are `ChannelHandler`s of their own,
        /// named `ChainTrace.probe.N`: `handler(type:)`, `context(name:)`, `removeHandler` and upgrades work on the
        /// app's handlers as before. Handlers added or removed after the probes went in (an upgrade swaps a
        /// protocol's handlers) are not seen until this is called again, which puts the probes back around the
        /// pipeline as it is then.
        ///
        /// With no recorder in force when this is called, the probes wait: a handler goes at each end of the
        /// pipeline instead (`ChainTrace.probe.arming.head`, `….tail`), which costs the app's handlers nothing, and
        /// the probes go in — around the pipeline as it is then — at the first event that reaches either end while a
        /// recorder is in force; that event is traced whole. (An event a handler starts mid-pipeline, such as a
        /// write from a timer, reaches an end only after the handlers it went through.) Once in, the probes stay.
        ///
        /// Hop names: an inbound event's hop is the handler's type (`ByteToMessageHandler<LineBasedFrameDecoder>`);
        /// an outbound event's, the type and the event (`HTTPResponseEncoder (write)`, `(flush)`), and the channel's
        /// own `Channel (write)`, `Channel (flush)`; an inbound event
        /// no handler took ends at an `unhandled` hop, so its trace ends *fell off the end*. A handler that passed
        /// the event on *passed* (as another type: the hop's reason says `as HTTPPart<HTTPRequestHead, ByteBuffer>`; several times:
        /// each is a hop inside it), one that kept it *accepted* (a decoder holding a partial frame), as did one that
        /// answered it — wrote while handling a read, its writes hops inside its own, and passed nothing on (reason
        /// `answered`) — and one that raised an error (fired `errorCaught` while handling another event) *failed*,
        /// with the error as reason.
        ///
        /// With `messageTypes` (the default), a read's or write's command kind names the message's type
        /// (`channelRead ByteBuffer`) and a hop that passed it on as another type says so. The types are those the
        /// handlers declare (`InboundIn`, `InboundOut`, `OutboundIn`, `OutboundOut`), read once, here: a handler is
        /// handed what it declares it takes. One that takes `NIOAny` or `Any` is handed what the handler before it
        /// hands on. Pass `false` for `channelRead` kinds and no types.
        ///
        /// With `channels` sampled (`.oneIn(100)`), one channel in that many — the first of `chain` this process asks
        /// about, and every hundredth after it — gets the probes and is traced whole, every event of it (the recorder may
        /// sample those too); the others get none and cost nothing at all. A busy server traces a few connections
        /// completely this way, where a recorder sampling events pays the probes on every connection. Called again
        /// on a channel that has its probes, it puts them back without drawing again; on one drawn out, it draws
        /// again.
        ///
        /// - Throws: `ChannelPipelineError` when the pipeline cannot take the probes.
        public func traceEventsNow(chain: String = "nio", messageTypes: Bool = true, channels: Sampling = .all) throws {
            eventLoop.preconditionInEventLoop()
            let operations = syncOperations
            var probed = false
            for name in handlerNames() where name.hasPrefix(EventProbe.namePrefix) {
                try operations.removeHandler(context: operations.context(name: name), promise: nil)
                probed = true
            }
            guard probed || ChannelDraw.admits(channels, chain: chain) else { return }
            let probes = PipelineProbes(chain: chain, messageTypes: messageTypes)
            guard ChainTracing.mayRecord else { return try probes.awaitRecorder(in: self) }
            try probes.install(in: self)
        }

        /// The names of the pipeline's handlers, head to tail, read from its description (NIO lists them nowhere
        /// else): each handler's line ends with its name in brackets.
        func handlerNames() -> [String] {
            let lines: [Substring] = debugDescription.split(separator: "\n")
            return lines.dropFirst().compactMap { line -> String? in
                // `…  ↓↑ TypeName [name]`: the name runs from the first ` [` after the arrows to the closing `]`.
                guard line.last == "]", !line.contains("[I] ↓↑ [O]"), let arrows = line.firstRange(of: "↓↑"),
                    let open = line[arrows.upperBound...].firstRange(of: " [")
                else { return nil }
                return String(line[open.upperBound..<line.index(before: line.endIndex)])
            }
        }
    }

    /// Which channels a sampled ``NIOCore/ChannelPipeline/traceEventsNow(chain:messageTypes:channels:)`` probes:
    /// a count for each chain, taken under a lock once a channel.
    enum ChannelDraw {
        private static let drawn = Mutex<[String: UInt64]>([:])

        /// Whether the next channel of `chain` is traced under `sampling`: the first, and every `interval`-th
        /// after it.
        static func admits(_ sampling: Sampling, chain: String) -> Bool {
            guard sampling.interval > 1 else { return true }
            let number = drawn.withLock { counts in
                defer { counts[chain, default: 0] &+= 1 }
                return counts[chain, default: 0]
            }
            return number % UInt64(sampling.interval) == 0
        }
    }

    extension EventProbe {
        /// What the probes' names start with.
        static let namePrefix = "ChainTrace.probe."
    }

    /// A handler's name in traces: its type, generic arguments kept (`ByteToMessageHandler<LineBasedFrameDecoder>`).
    func typeName(of handler: any ChannelHandler) -> String {
        String(describing: type(of: handler))
    }

    /// What a handler handles each way, as the probes in front of it and after it name it: its name, and the message
    /// types it declares it takes and hands on (`InboundIn`, `InboundOut`; `OutboundIn`, `OutboundOut`) — read from
    /// its type once, when the probes go in, where a message's own type could be read only by reflection, at every
    /// event (NIO keeps it to itself). In a pipeline NIO runs, a handler is handed what it declares it takes: it
    /// could not unwrap anything else.
    struct DeclaredTypes {
        /// How inbound events see it; `nil` if it handles none.
        var inbound: ProbedHandler?
        /// How outbound events see it; `nil` if it handles none.
        var outbound: ProbedHandler?

        /// `handler`'s sides, with its message types when `named`, numbered in `types`.
        init(of handler: any ChannelHandler, named: Bool, types: inout MessageTypeTable) {
            let name = typeName(of: handler)
            if let handler = handler as? any ChannelInboundHandler {
                inbound = Self.side(name: name, declaring: named ? Self.inboundTypes(of: handler) : nil, types: &types)
            }
            if let handler = handler as? any ChannelOutboundHandler {
                outbound = Self.side(
                    name: name,
                    declaring: named ? Self.outboundTypes(of: handler) : nil,
                    types: &types
                )
            }
        }

        private static func inboundTypes<Handler: ChannelInboundHandler>(of _: Handler) -> (Any.Type, Any.Type) {
            (Handler.InboundIn.self, Handler.InboundOut.self)
        }

        private static func outboundTypes<Handler: ChannelOutboundHandler>(of _: Handler) -> (Any.Type, Any.Type) {
            (Handler.OutboundIn.self, Handler.OutboundOut.self)
        }

        /// One side of a handler named `name` that takes and sends the `declared` types (`nil`: not named).
        private static func side(
            name: String,
            declaring declared: (takes: Any.Type, sends: Any.Type)?,
            types: inout MessageTypeTable
        ) -> ProbedHandler {
            guard let declared else { return ProbedHandler(name: name) }
            let takesName = messageTypeName(declared.takes)
            return ProbedHandler(
                name: name,
                takes: types.type(named: takesName),
                takesName: takesName,
                sends: types.type(named: messageTypeName(declared.sends))
            )
        }
    }

    /// A message type's name in traces (`ByteBuffer`, `HTTPPart<HTTPRequestHead, ByteBuffer>`), or `nil` for a type
    /// that names no message: `NIOAny` and `Any` (a handler taking whatever comes), `Never` (one declaring nothing it
    /// hands on — it passes on what it was handed, if anything).
    func messageTypeName(_ type: Any.Type) -> String? {
        if type == NIOAny.self || type == Any.self || type == Never.self { return nil }
        return String(describing: type)
    }
#endif
