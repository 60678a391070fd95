#if NIO
    import ChainTrace
    import ChainTraceNIO
    import ChainTraceTesting
    import NIOCore
    import NIOEmbedded
    import Testing

    /// Wraps its handing on of each read in an instrumented hop of its own (`Audit`, in the chain `chain`), and may
    /// decide its own hop from inside, as a handler with instrumented code of its own does.
    final class AuditingHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let chain: String
        let decision: Decision?

        init(chain: String, decision: Decision? = nil) {
            self.chain = chain
            self.decision = decision
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if let decision { ChainTracing.decide(decision, reason: "its own") }
            traceHop("Audit", command: "line", chain: chain) {
                context.fireChannelRead(data)
            }
        }
    }

    /// Answers each read with a write made inside a command of another chain (a side call: its own trace).
    final class SideCallingHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            traceHop("Log", command: 1, chain: "nio-side-log") {
                context.writeAndFlush(data, promise: nil)
            }
        }
    }

    /// Keeps every read.
    final class ReadKeeper: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }

    @Suite("NIO: a handler's own instrumented code inside a traced event")
    struct HandlerCodeTests {
        @Test("a hop of the same chain nests inside the handler's; the handlers after it nest inside that hop")
        func nestedHopOfTheSameChain() throws {
            let chain = "nio-nested-audit"
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandlers([AuditingHandler(chain: chain), ReadKeeper()])
            try channel.pipeline.traceEventsNow(chain: chain)
            let traces = try captureTraces(of: [chain]) {
                try channel.writeInbound(channel.allocator.buffer(string: "one"))
                try channel.writeInbound(channel.allocator.buffer(string: "two"))
            }
            #expect(traces.count == 2)
            for trace in traces {
                #expect(
                    trace.hops.map(\.handler) == ["AuditingHandler", "Audit", "ReadKeeper"],
                    "\(trace)"
                )
                #expect(trace.hops.map(\.parent) == [nil, 0, 1], "\(trace)")
                #expect(trace.hops.map(\.decision) == [.passed, .passed, .accepted], "\(trace)")
                #expect(trace.outcome.description.hasPrefix("accepted by ReadKeeper"), "\(trace.outcome)")
            }
        }

        @Test("ChainTracing.decide inside a handler decides that handler's hop")
        func decideInsideAHandler() throws {
            let chain = "nio-decide-inside"
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandlers([
                AuditingHandler(chain: "nio-decide-other"),
                AuditingHandler(chain: chain, decision: .continued),
                ReadKeeper(),
            ])
            try channel.pipeline.traceEventsNow(chain: chain)
            let traces = try captureTraces(of: [chain, "nio-decide-other"]) {
                try channel.writeInbound(channel.allocator.buffer(string: "one"))
            }
            // The first handler's Audit hop names another chain, for a command of another type: a side call, with a
            // trace of its own, in which the read goes on from the second handler — traced apart, as a side call's
            // hops are. The second handler's `decide` decides its own hop there.
            let read = try #require(traces.first { $0.chain == chain && $0.hops.first?.handler == "AuditingHandler" })
            #expect(read.hops.map(\.handler) == ["AuditingHandler"], "\(read)")
            let other = try #require(traces.first { $0.chain == "nio-decide-other" })
            #expect(other.hops.map(\.handler) == ["Audit"], "\(other)")
            let rest = try #require(traces.first { $0.chain == chain && $0.id != read.id })
            #expect(rest.hops.map(\.handler) == ["AuditingHandler", "Audit", "ReadKeeper"], "\(rest)")
            #expect(rest.hops[0].decision == .continued && rest.hops[0].reason == "its own", "\(rest)")
            #expect(rest.hops[2].decision == .accepted, "\(rest)")
        }

        @Test("a write made inside a side call is an event of the side call's: traced apart from the read")
        func writeInsideASideCall() throws {
            let chain = "nio-side-write"
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandlers([SideCallingHandler()])
            try channel.pipeline.traceEventsNow(chain: chain)
            let traces = try captureTraces(of: [chain, "nio-side-log"]) {
                try channel.writeInbound(channel.allocator.buffer(string: "ping"))
            }
            // As for any hop in a side call: a trace of its own, which leaves the read's decisions alone.
            let read = try #require(traces.first { $0.commandKind == "channelRead ByteBuffer" })
            #expect(hops(read) == ["SideCallingHandler:accepted"], "\(read)")
            let write = try #require(traces.first { $0.commandKind == "write" }, "\(traces)")
            #expect(hops(write) == ["Channel (write):accepted"], "\(write)")
            #expect(traces.contains { $0.commandKind == "flush" && hops($0) == ["Channel (flush):accepted"] })
            let log = try #require(traces.first { $0.chain == "nio-side-log" })
            #expect(log.hops.map(\.handler) == ["Log"], "\(log)")
            #expect(try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) } == "ping")
        }
    }
#endif
