#if NIO
    @testable import ChainTraceNIO
    import NIOEmbedded
    import Testing

    /// The command kinds a probe hands its events, made once with its pipeline's plan, against the kind
    /// `ChannelEvent`'s public initialiser makes from the event and its message's type: the same for every event a
    /// probe traces, with and without a declared message type.
    @Suite("NIO: an event's kind, made once a plan")
    struct ChannelEventKindTests {
        static let events: [EventKind] = [
            .channelActive, .channelInactive, .channelRead, .userInboundEventTriggered, .errorCaught, .write, .flush,
        ]

        @Test(arguments: [nil, "ByteBuffer", "HTTPPart<HTTPRequestHead, ByteBuffer>", "Ünïcode \"quoted\""])
        func theProbesKindIsThePublicOne(takesName: String?) {
            let channel = EmbeddedChannel()
            let handler = ProbedHandler(name: "Decoder", takesName: takesName)
            for event in Self.events {
                let made = handler.command(for: event, through: channel)
                let expected = ChannelEvent(
                    event: event.rawValue,
                    messageType: event.carriesMessage ? takesName : nil,
                    channel: channel
                )
                #expect(made.commandKind == expected.commandKind, "\(event)")
                #expect(made.event == expected.event && made.messageType == expected.messageType, "\(event)")
            }
            let read = handler.command(for: .channelRead, through: channel).commandKind
            #expect(read == (takesName.map { "channelRead \($0)" } ?? "channelRead"))
        }
    }
#endif
