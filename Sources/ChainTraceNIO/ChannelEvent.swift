#if NIO
    public import ChainTrace
    public import NIOCore

    /// An event through a channel's pipeline, as ChainTrace sees it: the command a traced pipeline's handlers handle.
    ///
    /// Its kind is the event and, for a read or a write, the type of the message as it entered the pipeline —
    /// `channelRead ByteBuffer`, `write HTTPPart<HTTPResponseHead, IOData>`, `flush`, `channelActive`, `errorCaught`:
    /// the type the handler it reached first declares it takes (`InboundIn`, `OutboundIn`). Its payload,
    /// recorded only when the recorder captures payloads, is the event, the message's type and the channel's
    /// peer's address; messages themselves are never read.
    public struct ChannelEvent: TracedCommand, Sendable {
        /// The event.
        public let event: String
        /// The type of the message a read or write carried into the pipeline, `nil` for other events (and for a
        /// message whose type no handler declares: one that takes `NIOAny` or `Any`).
        public var messageType: String? {
            switch origin {
            case .given(_, let messageType): messageType
            case .probe(_, let messageType): messageType
            }
        }

        /// The channel it went through.
        public var channel: any Channel {
            switch origin {
            case .given(let channel, _): channel
            case .probe(let context, _): context.channel
            }
        }

        /// Where the event's details come from: given, or the probe that saw it, asked when they are read.
        private enum Origin {
            case given(channel: any Channel, messageType: String?)
            /// The context the probe was handed, and the message's type.
            case probe(context: ChannelHandlerContext, messageType: String?)
        }

        /// Touched on the channel's event loop only: a probe makes the event there, and the recorder reads a
        /// command's kind and payload in the hop that starts its trace, on the same thread, before the hop's
        /// handler runs. Asking a probe's context for the channel only then saves every hop a reference count on
        /// the channel (a third of a traced hop's cost on an `EmbeddedChannel`, `chaintrace-nio-benchmarks`).
        nonisolated(unsafe) private let origin: Origin

        /// The event `event` carrying a message of type `messageType` through `channel`.
        public init(event: String, messageType: String?, channel: any Channel) {
            self.event = event
            self.origin = .given(channel: channel, messageType: messageType)
        }

        /// The event `event` a probe saw in `context`, carrying a message of type `messageType`.
        init(event: String, context: ChannelHandlerContext, messageType: String?) {
            self.event = event
            self.origin = .probe(context: context, messageType: messageType)
        }

        /// `channelRead ByteBuffer`: the event and its message's type.
        public var commandKind: String { messageType.map { "\(event) \($0)" } ?? event }

        /// None: an event has no id of its own (`diff` pairs events by their place).
        public var commandID: String? { nil }

        /// The event, the message's type and the peer, as JSON.
        public var commandPayload: JSONValue? {
            var fields: [String: JSONValue] = ["event": .string(event)]
            if let messageType { fields["messageType"] = .string(messageType) }
            if let remote = channel.remoteAddress { fields["remoteAddress"] = .string("\(remote)") }
            return .object(fields)
        }
    }
#endif
