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

    /// Counts what passes, whatever it is (it declares it takes `NIOAny`).
    final class PassCounter: ChannelInboundHandler {
        typealias InboundIn = NIOAny
        var count = 0

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            count += 1
            context.fireChannelRead(data)
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
            // and was answered by the sink, whose answer went out through the encoder to the channel.
            let frame = [
                "UppercaseHandler:passed", "LineSink:accepted", "LineEncoder (write):passed",
                "Channel (write):accepted",
                "LineEncoder (flush):passed", "Channel (flush):accepted",
            ]
            #expect(hops(double) == ["\(Self.decoder):passed"] + frame + frame, "\(hops(double))")
            let upper = double.hops.filter { $0.handler == "UppercaseHandler" }
            #expect(upper.count == 2)
            #expect(upper.allSatisfy { $0.reason == "as String" }, "\(upper.map(\.reason))")
            #expect(double.hops.filter { $0.handler == "LineSink" }.allSatisfy { $0.reason == "answered" })
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

        @Test("sampled: every fourth read is traced whole, with its types; the others not at all")
        func sampledReads() throws {
            let channel = EmbeddedChannel()
            let sink = LineSink()
            try channel.pipeline.syncOperations.addHandlers([
                ByteToMessageHandler(LineBasedFrameDecoder()), UppercaseHandler(), sink,
            ])
            // The form callable from any thread: it runs on the channel's loop (here, when the loop runs).
            let probed = channel.pipeline.traceEvents(chain: "lines-sampled")
            channel.embeddedEventLoop.run()
            try probed.wait()
            let traces = InMemoryTraceSink()
            try ChainTracing.withRecorder(Recorder(sink: traces, sampling: .oneIn(4))) {
                for line in 0..<8 { try channel.writeInbound(channel.allocator.buffer(string: "line \(line)\n")) }
            }
            #expect(sink.lines.count == 8)
            // Eight reads, each with a write and a flush of its answer inside: the first and the fifth read traced.
            let reads = traces.traces.filter { $0.commandKind == "channelRead ByteBuffer" }
            #expect(reads.count == 2, "\(traces.traces.map(\.commandKind))")
            #expect(traces.traces.count == 2, "an untraced read's writes start no trace of their own")
            for read in reads {
                #expect(
                    hops(read).prefix(3) == ["\(Self.decoder):passed", "UppercaseHandler:passed", "LineSink:accepted"],
                    "\(hops(read))"
                )
                #expect(read.hops.first { $0.handler == "UppercaseHandler" }?.reason == "as String")
            }
        }

        @Test("message types are the handlers' own: one taking NIOAny passes on what it was handed, unchanged")
        func declaredTypes() throws {
            let channel = EmbeddedChannel()
            let sink = LineSink()
            try channel.pipeline.syncOperations.addHandlers([
                PassCounter(), ByteToMessageHandler(LineBasedFrameDecoder()), PassCounter(), UppercaseHandler(),
                PassCounter(), sink,
            ])
            try channel.pipeline.traceEventsNow(chain: "lines-types")
            let traces = try captureTraces(of: ["lines-types"]) {
                try channel.writeInbound(channel.allocator.buffer(string: "a\n"))
            }
            // The first counter declares nothing: the read's kind is the decoder's, the first type declared.
            let read = try #require(traces.first)
            #expect(read.commandKind == "channelRead", "\(read.commandKind)")
            #expect(
                read.hops.map { "\($0.handler):\($0.reason ?? "")" }.prefix(5) == [
                    "PassCounter:", "\(Self.decoder):", "PassCounter:", "UppercaseHandler:as String", "PassCounter:",
                ],
                "\(read.hops.map { "\($0.handler):\($0.reason ?? "")" })"
            )
            #expect(sink.lines == ["A"])
        }

        @Test("channels sampled: one in four gets the probes and is traced whole; the others are left as built")
        func sampledChannels() throws {
            let channels = try (0..<12).map { _ in
                let channel = EmbeddedChannel()
                try channel.pipeline.syncOperations.addHandlers([
                    ByteToMessageHandler(LineBasedFrameDecoder()), UppercaseHandler(), LineSink(),
                ])
                try channel.pipeline.traceEventsNow(chain: "lines-channels", channels: .oneIn(4))
                return channel
            }
            let probed = channels.map { $0.pipeline.debugDescription.contains("ChainTrace.probe.") }
            #expect(probed == (0..<12).map { $0 % 4 == 0 }, "\(probed)")
            // Called again, a probed channel keeps its probes without a draw.
            try channels[0].pipeline.traceEventsNow(chain: "lines-channels", channels: .oneIn(4))
            #expect(channels[0].pipeline.debugDescription.contains("ChainTrace.probe."))
            let traces = try captureTraces(of: ["lines-channels"]) {
                for channel in channels { try channel.writeInbound(channel.allocator.buffer(string: "a\nb\n")) }
            }
            let reads = traces.filter { $0.commandKind == "channelRead ByteBuffer" }
            #expect(reads.count == 3, "\(traces.map(\.commandKind))")
            #expect(reads.allSatisfy { $0.hops.filter { $0.handler == "LineSink" }.count == 2 })
        }

        @Test("with no recorder in force nothing is traced and the pipeline works as before")
        func noRecorder() throws {
            let (channel, sink) = try Self.channel(chain: "lines-off")
            try channel.writeInbound(channel.allocator.buffer(string: "x\ny\n"))
            #expect(sink.lines == ["X", "Y"])
        }
    }
#endif
