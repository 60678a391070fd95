#if NIO
    import ChainTrace
    import ChainTraceNIO
    import ChainTraceTestSupport
    import ChainTraceTesting
    import NIOCore
    import NIOEmbedded
    import NIOExtras
    import Testing

    /// Upper-cases each line it is handed and passes it on as a `String`.
    final class UppercaseHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = String

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let line = String(buffer: unwrapInboundIn(data)).uppercased()
            context.fireChannelRead(wrapInboundOut(line))
        }
    }

    /// Keeps every line it is handed, answering `ok` for each, and raises an error for the line `BOOM`.
    final class LineSink: ChannelInboundHandler {
        typealias InboundIn = String
        typealias OutboundOut = ByteBuffer
        struct Boom: Error {}

        var lines: [String] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let line = unwrapInboundIn(data)
            if line == "BOOM" {
                context.fireErrorCaught(Boom())
                return
            }
            lines.append(line)
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: "ok\n")), promise: nil)
        }
    }

    /// Frames outbound strings as lines.
    final class LineEncoder: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            context.write(data, promise: promise)
        }
    }

    /// The hops of `trace` with their decisions, as `Name:decision`.
    func hops(_ trace: Trace) -> [String] {
        trace.hops.map { "\($0.handler):\($0.decision)" }
    }

    @Suite("NIO: traceEvents traces every event through the pipeline's handlers")
    struct EmbeddedPipelineTests {
        static let decoder = "ByteToMessageHandler<LineBasedFrameDecoder>"

        /// A channel: line decoder, upper-caser, sink; an encoder on the way out; traced.
        static func channel(chain: String) throws -> (EmbeddedChannel, LineSink) {
            let channel = EmbeddedChannel()
            let sink = LineSink()
            try channel.pipeline.syncOperations.addHandlers([
                LineEncoder(), ByteToMessageHandler(LineBasedFrameDecoder()), UppercaseHandler(), sink,
            ])
            try channel.pipeline.traceEventsNow(chain: chain)
            return (channel, sink)
        }

        @Test("a partial frame is kept by the decoder; a double frame fans out to two")
        func partialAndDoubleFrames() throws {
            let (channel, sink) = try Self.channel(chain: "lines-partial")
            var traces = try captureTraces(of: ["lines-partial"]) {
                try channel.writeInbound(channel.allocator.buffer(string: "hel"))
            }
            let partial = try #require(traces.first)
            #expect(traces.count == 1)
            #expect(partial.commandKind == "channelRead ByteBuffer")
            #expect(hops(partial) == ["\(Self.decoder):accepted"], "\(partial)")

            traces = try captureTraces(of: ["lines-partial"]) {
                try channel.writeInbound(channel.allocator.buffer(string: "lo\nworld\n"))
            }
            #expect(sink.lines == ["HELLO", "WORLD"])
            let double = try #require(traces.first(where: { $0.commandKind == "channelRead ByteBuffer" }))
            // The decoder handed on two frames: each went through the upper-caser (which passed it on as a String)
            // and was kept by the sink, whose answer went out through the encoder to the channel.
            let frame = [
                "UppercaseHandler:passed", "LineSink:passed", "LineEncoder (write):passed", "Channel (write):accepted",
                "LineEncoder (flush):passed", "Channel (flush):accepted",
            ]
            #expect(hops(double) == ["\(Self.decoder):passed"] + frame + frame, "\(hops(double))")
            let upper = double.hops.filter { $0.handler == "UppercaseHandler" }
            #expect(upper.count == 2)
            #expect(upper.allSatisfy { $0.reason == "as String" }, "\(upper.map(\.reason))")
            let decoderHop = try #require(double.hops.first)
            #expect(double.hops.filter { $0.parent == decoderHop.position }.count == 2, "two frames out of one read")
        }

        @Test("a handler that raises an error while reading fails; the error goes on as its own hops")
        func raisedError() throws {
            let (channel, _) = try Self.channel(chain: "lines-error")
            let traces = captureTraces(of: ["lines-error"]) {
                // EmbeddedChannel hands back what reached its tail unhandled.
                #expect(throws: LineSink.Boom.self) {
                    try channel.writeInbound(channel.allocator.buffer(string: "boom\n"))
                }
            }
            let trace = try #require(traces.first)
            let sink = try #require(trace.hops.first { $0.handler == "LineSink" })
            #expect(sink.decision == .failed, "\(trace)")
            #expect(sink.reason?.contains("Boom") == true)
            #expect(trace.outcome.description.hasPrefix("failed at LineSink"), "\(trace.outcome)")
            // The error event reached the pipeline's tail: nobody handled it.
            #expect(trace.hops.contains { $0.handler == "unhandled" && $0.parent == sink.position })
        }

        @Test("an outbound write goes through the outbound handlers in order, to the channel")
        func outboundOrder() throws {
            let (channel, _) = try Self.channel(chain: "lines-out")
            let traces = try captureTraces(of: ["lines-out"]) {
                try channel.writeOutbound(channel.allocator.buffer(string: "direct\n"))
            }
            let write = try #require(traces.first { $0.commandKind == "write ByteBuffer" })
            #expect(hops(write) == ["LineEncoder (write):passed", "Channel (write):accepted"], "\(write)")
            #expect(traces.contains { $0.commandKind == "flush" })
        }

        @Test("handler(type:), context(name:) and removeHandler work with tracing on; traceEvents again re-probes")
        func removalAndLookups() throws {
            let channel = EmbeddedChannel()
            let upper = UppercaseHandler()
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(LineBasedFrameDecoder()),
                name: "decoder"
            )
            try channel.pipeline.syncOperations.addHandler(upper, name: "upper")
            try channel.pipeline.traceEventsNow(chain: "lines-remove")
            #expect(try channel.pipeline.syncOperations.handler(type: UppercaseHandler.self) === upper)
            #expect(try channel.pipeline.syncOperations.context(name: "upper").handler === upper)
            try channel.pipeline.syncOperations.removeHandler(name: "upper").wait()
            try channel.pipeline.traceEventsNow(chain: "lines-remove")
            let traces = try captureTraces(of: ["lines-remove"]) {
                try channel.writeInbound(channel.allocator.buffer(string: "a\n"))
            }
            let read = try #require(traces.first)
            #expect(hops(read) == ["\(Self.decoder):passed", "unhandled:passed"], "\(read)")
            #expect(read.outcome == .fellOffTheEnd)
            let line: ByteBuffer? = try channel.readInbound()
            #expect(line.map { String(buffer: $0) } == "a")
        }

        @Test("with no recorder in force nothing is traced and the pipeline works as before")
        func noRecorder() throws {
            let (channel, sink) = try Self.channel(chain: "lines-off")
            try channel.writeInbound(channel.allocator.buffer(string: "x\ny\n"))
            #expect(sink.lines == ["X", "Y"])
        }
    }
#endif
