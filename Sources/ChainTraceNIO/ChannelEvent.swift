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
        public let messageType: String?
        /// The channel it went through.
        public let channel: any Channel
        /// ``commandKind``, made once. The probes hand in the kind their pipeline's plan made: interpolated at each
        /// traced event, it was a string allocated an event — about 700 instructions (callgrind,
        /// `chaintrace-nio-benchmarks`, "traceEventsNow(), traced into memory" with no handlers).
        private let kind: String

        /// The event `event` carrying a message of type `messageType` through `channel`.
        public init(event: String, messageType: String?, channel: any Channel) {
            self.init(
                event: event,
                messageType: messageType,
                kind: Self.kind(of: event, carrying: messageType),
                channel: channel
            )
        }

        /// The event `event` carrying a message of type `messageType` through `channel`, whose kind, made before,
        /// is `kind` (``kind(of:carrying:)``).
        init(event: String, messageType: String?, kind: String, channel: any Channel) {
            self.event = event
            self.messageType = messageType
            self.kind = kind
            self.channel = channel
        }

        /// The kind of an event `event` carrying a message of type `messageType`.
        static func kind(of event: String, carrying messageType: String?) -> String {
            messageType.map { "\(event) \($0)" } ?? event
        }

        /// `channelRead ByteBuffer`: the event and its message's type.
        public var commandKind: String { kind }

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
