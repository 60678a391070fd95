#if NIO
    import ChainTrace
    public import NIOCore

    extension ChannelPipeline {
        /// Traces every event through the pipeline's handlers from now on: each inbound event (`channelRead`,
        /// `channelActive`, `channelInactive`, user events, `errorCaught`) and outbound one (`write`, `flush`) is a
        /// command, and each handler it reaches a hop of its trace, with no edit to any handler. Call it from any
        /// thread; it runs on the channel's event loop. See ``traceEventsNow(chain:messageTypes:)``.
        public func traceEvents(chain: String = "nio", messageTypes: Bool = true) -> EventLoopFuture<Void> {
            eventLoop.submit { try self.traceEventsNow(chain: chain, messageTypes: messageTypes) }
        }

        /// Traces every event through the pipeline's handlers from now on, on the channel's event loop (a channel
        /// initializer runs there): ``traceEvents(chain:messageTypes:)`` without the hop to the loop.
        ///
        /// A probe goes in front of each handler (and one at the tail). They are `ChannelHandler`s of their own,
        /// named `ChainTrace.probe.N`: `handler(type:)`, `context(name:)`, `removeHandler` and upgrades work on the
        /// app's handlers as before. Handlers added or removed later (an upgrade swaps a protocol's handlers) are
        /// not seen until this is called again, which puts the probes back around the pipeline as it is then.
        ///
        /// Hop names: an inbound event's hop is the handler's type (`ByteToMessageHandler<LineBasedFrameDecoder>`);
        /// an outbound event's, the type and the event (`HTTPResponseEncoder (write)`, `(flush)`), and the channel's
        /// own `Channel (write)`, `Channel (flush)`; an inbound event
        /// no handler took ends at an `unhandled` hop, so its trace ends *fell off the end*. A handler that passed
        /// the event on *passed* (as another type: the hop's reason says `as HTTPServerRequestPart`; several times:
        /// each is a hop inside it), one that kept it *accepted* (a decoder holding a partial frame), one that
        /// raised an error (fired `errorCaught` while handling another event) *failed*, with the error as reason.
        ///
        /// With `messageTypes` (the default), a read's or write's command kind names the message's type
        /// (`channelRead ByteBuffer`) and a hop that passed it on as another type says so; NIO keeps a message's type
        /// to itself, and reading it by reflection costs about a microsecond a traced hop: pass `false` for
        /// `channelRead` kinds and no types.
        ///
        /// - Throws: `ChannelPipelineError` when the pipeline cannot take the probes.
        public func traceEventsNow(chain: String = "nio", messageTypes: Bool = true) throws {
            eventLoop.preconditionInEventLoop()
            let operations = syncOperations
            for name in handlerNames() where name.hasPrefix(EventProbe.namePrefix) {
                try operations.removeHandler(context: operations.context(name: name), promise: nil)
            }
            let handlers = try handlerNames().map { name in try operations.context(name: name).handler }
            let state = ProbeState(chain: chain, recordsTypes: messageTypes)
            func inboundName(_ handler: any ChannelHandler) -> String? {
                handler is any _ChannelInboundHandler ? typeName(of: handler) : nil
            }
            func outboundName(_ handler: any ChannelHandler) -> String? {
                handler is any _ChannelOutboundHandler ? typeName(of: handler) : nil
            }
            for (index, handler) in handlers.enumerated() {
                let probe = EventProbe(
                    inbound: inboundName(handler),
                    outbound: index == 0 ? "Channel" : outboundName(handlers[index - 1]),
                    isTail: false,
                    state: state
                )
                try operations.addHandler(probe, name: EventProbe.namePrefix + "\(index)", position: .before(handler))
            }
            let tail = EventProbe(
                inbound: "unhandled",
                outbound: handlers.last.map(outboundName) ?? "Channel",
                isTail: true,
                state: state
            )
            try operations.addHandler(tail, name: EventProbe.namePrefix + "tail", position: .last)
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

    extension EventProbe {
        /// What the probes' names start with.
        static let namePrefix = "ChainTrace.probe."
    }

    /// A handler's name in traces: its type, generic arguments kept (`ByteToMessageHandler<LineBasedFrameDecoder>`).
    func typeName(of handler: any ChannelHandler) -> String {
        String(describing: type(of: handler))
    }
#endif
