#if NIO
    public import ChainTrace
    public import NIOCore
    import ChainTraceFastPath
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
        /// sample those too); the others get none: nothing an event, and about 0.2 µs when the channel is set up, for
        /// the draw. A busy server traces a few connections completely this way, where a recorder
        /// sampling events pays the probes on every connection. Called again on a channel that has its probes, it
        /// puts them back without drawing again; on one drawn out, it draws again.
        ///
        /// - Throws: `ChannelPipelineError` when the pipeline cannot take the probes.
        public func traceEventsNow(chain: String = "nio", messageTypes: Bool = true, channels: Sampling = .all) throws {
            eventLoop.preconditionInEventLoop()
            let operations = syncOperations
            // A channel with no probes yet — every new connection — is drawn before anything else: one drawn out
            // costs a walk of its handlers' contexts and the draw, not the pipeline's description.
            let probed = hasProbes
            if probed {
                for context in handlerContexts() where context.name.hasPrefix(EventProbe.namePrefix) {
                    operations.removeHandler(context: context, promise: nil)
                }
            }
            guard probed || ChannelDraw.admits(channels, chain: chain) else { return }
            let probes = PipelineProbes(chain: chain, messageTypes: messageTypes)
            guard ChainTracing.mayRecord else { return try probes.awaitRecorder(in: self) }
            try probes.install(in: self)
        }

        /// Whether probes, or the arming handlers waiting to put them in, are in the pipeline: found by type, in one
        /// walk of its links where it can (every new connection asks), else by NIO's lookups by type.
        var hasProbes: Bool {
            let isProbe = { (context: ChannelHandlerContext) in
                let handler = context.handler
                return handler is EventProbe || handler is ProbeArming
            }
            if let found = Self.contextLinks.contains(in: self, limit: 1_000_000, where: isProbe) { return found }
            return hasProbesByType
        }

        /// ``hasProbes`` by NIO's lookups of a handler by type: a walk of the pipeline each.
        var hasProbesByType: Bool {
            let operations = syncOperations
            return (try? operations.context(handlerType: EventProbe.self)) != nil
                || (try? operations.context(handlerType: ProbeArming.self)) != nil
        }

        /// The contexts of the pipeline's handlers, head to tail. NIO lists them nowhere public but in its
        /// description, which costs several times what the rest of putting the probes in does: they are read from
        /// its private links where they can be (``ReflectedLinks``), else found by the names in the description.
        func handlerContexts() -> [ChannelHandlerContext] {
            linkedHandlerContexts() ?? describedHandlerContexts()
        }

        /// The contexts of the pipeline's handlers, head to tail, found by the names its description lists.
        func describedHandlerContexts() -> [ChannelHandlerContext] {
            let operations = syncOperations
            return handlerNames().compactMap { try? operations.context(name: $0) }
        }

        /// The contexts of the pipeline's handlers, head to tail, read from its private links; `nil` if NIO no longer
        /// keeps them where ``contextLinks`` looks.
        func linkedHandlerContexts() -> [ChannelHandlerContext]? {
            // The pipeline's own head and tail are not handlers of the app's.
            Self.contextLinks.list(in: self, limit: 1_000_000).map { Array($0.dropFirst().dropLast()) }
        }

        /// Where NIO keeps a pipeline's contexts: its `head` and `tail`, each context linked to the next by `next`.
        static let contextLinks = ReflectedLinks<ChannelPipeline, ChannelHandlerContext>(
            first: "head",
            last: "tail",
            next: "next"
        )

        /// The names of the pipeline's handlers, head to tail, read from its description (NIO lists them nowhere
        /// else): each handler's line ends with its name in brackets.
        func handlerNames() -> [String] {
            Self.handlerNames(inDescription: debugDescription)
        }

        /// The handlers' names in a pipeline's description, `debugDescription`: after the first line, each line of a
        /// handler reads `…  ↓↑ TypeName [name]`, its name running from the first ` [` after the arrows to the
        /// closing `]`; the head's and the tail's lines (`[I] ↓↑ [O]`) are left out. Scanned byte by byte: searched as
        /// characters (every line broken into graphemes), or with the standard library's generic searches, the scan
        /// cost more than NIO's making of the description (`chaintrace-nio-benchmarks`, "A connection's set-up").
        static func handlerNames(inDescription description: String) -> [String] {
            let bytes = Array(description.utf8)
            var names: [String] = []
            var lineStart = 0
            var isFirstLine = true
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                if isFirstLine {
                    isFirstLine = false
                    continue
                }
                guard lineEnd > lineStart, bytes[lineEnd - 1] == UInt8(ascii: "]"),
                    Self.find(headAndTail, in: bytes, from: lineStart, to: lineEnd) == nil,
                    let arrowsStart = Self.find(arrows, in: bytes, from: lineStart, to: lineEnd),
                    let open = Self.find(nameOpening, in: bytes, from: arrowsStart + arrows.count, to: lineEnd)
                else { continue }
                names.append(String(decoding: bytes[(open + nameOpening.count)..<(lineEnd - 1)], as: UTF8.self))
            }
            return names
        }

        private static let arrows = Array("↓↑".utf8)
        private static let headAndTail = Array("[I] ↓↑ [O]".utf8)
        private static let nameOpening = Array(" [".utf8)

        /// Where `pattern` first starts in `bytes[start..<end]`, if it does.
        private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int, to end: Int) -> Int? {
            guard end - start >= pattern.count else { return nil }
            var index = start
            while index <= end - pattern.count {
                var matches = true
                for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] {
                    matches = false
                    break
                }
                if matches { return index }
                index += 1
            }
            return nil
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
            // One lookup of the chain (every new connection hashes its name): its count read and counted in place.
            let number = drawn.withLock { counts in Self.countOne(&counts[chain, default: 0]) }
            return number % UInt64(sampling.interval) == 0
        }

        /// `count` before it is counted one more.
        private static func countOne(_ count: inout UInt64) -> UInt64 {
            defer { count &+= 1 }
            return count
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
            let declared = HandlerTypeNames.of(handler)
            inbound = declared.inbound.map {
                Self.side(name: declared.name, declaring: named ? $0 : nil, types: &types)
            }
            outbound = declared.outbound.map {
                Self.side(name: declared.name, declaring: named ? $0 : nil, types: &types)
            }
        }

        /// One side of a handler named `name` that takes and sends the message types `declared` names (`nil`: not
        /// named).
        private static func side(
            name: String,
            declaring declared: HandlerTypeNames.Side?,
            types: inout MessageTypeTable
        ) -> ProbedHandler {
            guard let declared else { return ProbedHandler(name: name) }
            return ProbedHandler(
                name: name,
                takes: types.type(named: declared.takes),
                takesName: declared.takes,
                sends: types.type(named: declared.sends)
            )
        }
    }

    /// What a handler type declares, as traces name it: its own name, and its message types' each way it handles
    /// events. Read from the type once a process (a type's name is made by demangling it, and its sides are found by
    /// dynamic casts: together about a quarter of putting probes into an HTTP/1 server pipeline, before they were kept —
    /// `chaintrace-nio-benchmarks`, "A connection's set-up").
    struct HandlerTypeNames: Sendable {
        /// The message types one side takes and hands on (`nil`: one it leaves open).
        struct Side: Sendable {
            let takes: String?
            let sends: String?
        }

        let name: String
        /// Its inbound side; `nil` if it handles no inbound events.
        let inbound: Side?
        /// Its outbound side; `nil` if it handles no outbound events.
        let outbound: Side?

        private static let known = Mutex<[ObjectIdentifier: HandlerTypeNames]>([:])

        /// What `handler`'s type declares: read once, then kept.
        static func of(_ handler: any ChannelHandler) -> HandlerTypeNames {
            let type = ObjectIdentifier(Swift.type(of: handler))
            if let names = known.withLock({ $0[type] }) { return names }
            let names = HandlerTypeNames(reading: handler)
            known.withLock { $0[type] = names }
            return names
        }

        private init(reading handler: any ChannelHandler) {
            name = typeName(of: handler)
            inbound = (handler as? any ChannelInboundHandler).map { Self.inboundSide(of: $0) }
            outbound = (handler as? any ChannelOutboundHandler).map { Self.outboundSide(of: $0) }
        }

        private static func inboundSide<Handler: ChannelInboundHandler>(of _: Handler) -> Side {
            Side(takes: messageTypeName(Handler.InboundIn.self), sends: messageTypeName(Handler.InboundOut.self))
        }

        private static func outboundSide<Handler: ChannelOutboundHandler>(of _: Handler) -> Side {
            Side(takes: messageTypeName(Handler.OutboundIn.self), sends: messageTypeName(Handler.OutboundOut.self))
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
