#if NIO
    import ChainTrace
    @testable import ChainTraceNIO
    import ChainTraceTestSupport
    import ChainTraceTesting
    import NIOCore
    import NIOEmbedded
    import Testing

    /// Passes each message on unchanged.
    final class PassOn<Message>: ChannelInboundHandler {
        typealias InboundIn = Message
    }

    /// Passes each buffer on as a `String`.
    final class BufferToString: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = String

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.fireChannelRead(wrapInboundOut(String(buffer: unwrapInboundIn(data))))
        }
    }

    /// Passes each string on as a `ByteBuffer`.
    final class StringToBuffer: ChannelInboundHandler {
        typealias InboundIn = String
        typealias InboundOut = ByteBuffer

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = context.channel.allocator.buffer(string: unwrapInboundIn(data))
            context.fireChannelRead(wrapInboundOut(buffer))
        }
    }

    /// Passes each message on twice: a frame decoder that made two frames of one read.
    final class PassTwice<Message>: ChannelInboundHandler {
        typealias InboundIn = Message

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.fireChannelRead(data)
            context.fireChannelRead(data)
        }
    }

    /// Keeps every message.
    final class KeepAll<Message>: ChannelInboundHandler {
        typealias InboundIn = Message

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }

    /// Answers each message with a write and a flush, and passes nothing on.
    final class AnswerAll<Message>: ChannelInboundHandler {
        typealias InboundIn = Message
        typealias OutboundOut = ByteBuffer

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: "ok")), promise: nil)
        }
    }

    /// Raises an error for each message, and passes nothing on.
    final class RaiseOnRead<Message>: ChannelInboundHandler {
        typealias InboundIn = Message
        struct Refused: Error {}

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.fireErrorCaught(Refused())
        }
    }

    /// Pipelines of inbound handlers drawn at random — passing on, changing the message's type, fanning out,
    /// keeping, answering, raising — each read's trace checked against what the handlers did (a model of the
    /// probes' rules, written from their documentation), with the probes put in at once or by the arming handlers.
    @Suite("NIO: generated pipelines, each read's hops as the handlers made them")
    struct GeneratedPipelineTests {
        /// What a drawn handler does with a read.
        enum Kind {
            case passOn, convert, passTwice, keep, answer, raise
        }

        /// A hop the model expects: `handler:decision`, its reason, and the index of its parent in pre-order.
        struct ExpectedHop: Equatable, CustomStringConvertible {
            let text: String
            let reason: String?
            let parent: Int?

            var description: String { "\(text) [\(reason ?? "-")] ^\(parent.map(String.init) ?? "-")" }
        }

        /// A drawn handler: what it does, its name in traces and the type it takes and hands on.
        struct Drawn {
            let kind: Kind
            let handler: any ChannelHandler
            let name: String
            let takes: String
            let sends: String
        }

        /// Draws up to six handlers that pass the read on, then perhaps one that ends it; each takes the type
        /// the one before hands on.
        static func draw(using random: inout SeededGenerator) -> [Drawn] {
            var drawn: [Drawn] = []
            var type = "ByteBuffer"
            var twice = 0
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                var kinds: [Kind] = [.passOn, .convert]
                if twice < 2 { kinds.append(.passTwice) }
                let kind = random.pick(kinds)
                if kind == .passTwice { twice += 1 }
                drawn.append(make(kind, taking: type))
                type = drawn[drawn.count - 1].sends
            }
            if random.chance(0.7) { drawn.append(make(random.pick([.keep, .answer, .raise]), taking: type)) }
            return drawn
        }

        static func make(_ kind: Kind, taking type: String) -> Drawn {
            let isBuffer = type == "ByteBuffer"
            let handler: any ChannelHandler =
                switch kind {
                case .passOn: isBuffer ? PassOn<ByteBuffer>() : PassOn<String>()
                case .convert: isBuffer ? BufferToString() : StringToBuffer()
                case .passTwice: isBuffer ? PassTwice<ByteBuffer>() : PassTwice<String>()
                case .keep: isBuffer ? KeepAll<ByteBuffer>() : KeepAll<String>()
                case .answer: isBuffer ? AnswerAll<ByteBuffer>() : AnswerAll<String>()
                case .raise: isBuffer ? RaiseOnRead<ByteBuffer>() : RaiseOnRead<String>()
                }
            let sends = kind == .convert ? (isBuffer ? "String" : "ByteBuffer") : type
            return Drawn(
                kind: kind,
                handler: handler,
                name: String(describing: Swift.type(of: handler)),
                takes: type,
                sends: sends
            )
        }

        /// The hops a read through `drawn` from handler `index` on makes, appended to `hops` in pre-order.
        static func expectRead(
            _ drawn: [Drawn],
            from index: Int,
            parent: Int?,
            messageTypes: Bool,
            into hops: inout [ExpectedHop]
        ) {
            guard index < drawn.count else {
                hops.append(tail(parent: parent))
                return
            }
            let handler = drawn[index]
            let position = hops.count
            func add(_ decision: String, _ reason: String?) {
                hops.append(ExpectedHop(text: "\(handler.name):\(decision)", reason: reason, parent: parent))
            }
            switch handler.kind {
            case .passOn, .convert, .passTwice:
                add("passed", messageTypes && handler.kind == .convert ? "as \(handler.sends)" : nil)
                for _ in 0..<(handler.kind == .passTwice ? 2 : 1) {
                    expectRead(drawn, from: index + 1, parent: position, messageTypes: messageTypes, into: &hops)
                }
            case .keep:
                add("accepted", nil)
            case .answer:
                // The write and the flush reach the channel: no handler before it handles outbound events.
                add("accepted", "answered")
                hops.append(ExpectedHop(text: "Channel (write):accepted", reason: nil, parent: position))
                hops.append(ExpectedHop(text: "Channel (flush):accepted", reason: nil, parent: position))
            case .raise:
                add("failed", "raised Refused()")
                // The error goes on through every handler after it (none handles errors) to the tail.
                var errorParent = position
                for later in drawn[(index + 1)...] {
                    hops.append(ExpectedHop(text: "\(later.name):passed", reason: nil, parent: errorParent))
                    errorParent = hops.count - 1
                }
                hops.append(tail(parent: errorParent))
            }
        }

        static func tail(parent: Int?) -> ExpectedHop {
            ExpectedHop(
                text: "unhandled:passed",
                reason: "reached the pipeline's tail: no handler took it",
                parent: parent
            )
        }

        @Test(arguments: SeededGenerator.seeds(24))
        func readsThroughDrawnPipelines(seed: UInt64) throws {
            var random = SeededGenerator(seed: seed)
            let drawn = Self.draw(using: &random)
            let messageTypes = random.chance(0.75)
            let chain = "generated-\(seed)"
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandlers(drawn.map(\.handler))
            // The probes put in at once (a recorder in force as it is called), or by the arming handlers at the
            // pipeline's ends at the first read (none in force then: forced here, whatever other tests run).
            let armsLater = random.chance(0.5)
            if armsLater {
                try PipelineProbes(chain: chain, messageTypes: messageTypes).awaitRecorder(in: channel.pipeline)
                #expect(channel.pipeline.handlerNames().filter { $0.hasPrefix("ChainTrace.") }.count == 2)
            } else {
                try channel.pipeline.traceEventsNow(chain: chain, messageTypes: messageTypes)
            }
            let reads = Int.random(in: 1...3, using: &random)
            let traces = captureTraces(of: [chain]) {
                for _ in 0..<reads {
                    // A raised error, or a read no handler kept, comes back from the channel; neither is this
                    // test's concern.
                    _ = try? channel.writeInbound(channel.allocator.buffer(string: "line"))
                }
            }
            var expected: [ExpectedHop] = []
            Self.expectRead(drawn, from: 0, parent: nil, messageTypes: messageTypes, into: &expected)
            let pipeline = drawn.map(\.name).joined(separator: " → ")
            #expect(traces.count == reads, "seed \(seed): \(pipeline)")
            let kind = messageTypes && !drawn.isEmpty ? "channelRead ByteBuffer" : "channelRead"
            for trace in traces {
                #expect(trace.commandKind == kind, "seed \(seed): \(pipeline)")
                let actual = trace.hops.map {
                    ExpectedHop(text: "\($0.handler):\($0.decision)", reason: $0.reason, parent: $0.parent)
                }
                #expect(actual == expected, "seed \(seed): \(pipeline)\n\(actual)\nexpected \(expected)")
            }
            // Once the loop has run, the arming handlers are gone and a probe is in front of each handler.
            channel.embeddedEventLoop.run()
            let names = channel.pipeline.handlerNames()
            #expect(!names.contains { $0.contains("arming") }, "seed \(seed): \(names)")
            #expect(names.filter { $0.hasPrefix("ChainTrace.probe.") }.count == drawn.count + 1, "seed \(seed)")
            _ = try? channel.finish()
        }

        /// The probe plans kept for pipelines of the same handler types against plans made afresh: for generated
        /// pipelines, more shapes than are kept, asked for again in random order (and by the tests running beside
        /// this one), a kept plan is always the one its handlers' types make.
        @Test(arguments: SeededGenerator.seeds(24))
        func keptProbePlansAreTheOnesTheHandlersMake(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            let shapes = (0..<(ProbePlan.keptPlans + 4)).map { _ in Self.draw(using: &random).map(\.handler) }
            func describe(_ handler: ProbedHandler?) -> String {
                guard let handler else { return "none" }
                return "\(handler.name) \(handler.takes.index) \(handler.takesName ?? "-") \(handler.sends.index)"
            }
            func describe(_ plan: ProbePlan) -> [String] {
                plan.probes.map {
                    [
                        $0.name, describe($0.inbound), describe($0.outboundWrite), describe($0.outboundFlush),
                        "\($0.isTail)",
                    ]
                    .joined(separator: " | ")
                } + plan.typeNames
            }
            for _ in 0..<(3 * shapes.count) {
                let handlers = random.pick(shapes)
                let messageTypes = random.chance(0.5)
                let kept = ProbePlan.of(handlers, messageTypes: messageTypes)
                let made = ProbePlan(for: handlers, messageTypes: messageTypes)
                let names = handlers.map { String(describing: type(of: $0)) }
                #expect(kept.handlerTypes == made.handlerTypes, "seed \(seed): \(names)")
                #expect(kept.messageTypes == messageTypes, "seed \(seed): \(names)")
                #expect(describe(kept) == describe(made), "seed \(seed): \(names)")
            }
        }

        @Test(
            "the handlers' names are read back from the pipeline's description, whatever they hold",
            arguments: SeededGenerator.seeds(24)
        )
        func handlerNamesOfDrawnPipelines(seed: UInt64) throws {
            var random = SeededGenerator(seed: seed)
            let handlers = Self.draw(using: &random).map(\.handler)
            // Any name NIO takes but a line break, which would end its line of the description.
            var names: [String] = []
            while names.count < handlers.count {
                let name = random.hostileName(maximumLength: 16, minimumLength: 1).filter { $0 != "\n" }
                if !name.isEmpty, !names.contains(name) { names.append(name) }
            }
            let channel = EmbeddedChannel()
            for (handler, name) in zip(handlers, names) {
                try channel.pipeline.syncOperations.addHandler(handler, name: name)
            }
            #expect(channel.pipeline.handlerNames() == names, "seed \(seed)")
            Self.expectLinkedContexts(of: channel.pipeline, named: names, seed: seed)
            #expect(!channel.pipeline.hasProbes)
            #expect(!channel.pipeline.hasProbesByType)
            if random.chance(0.5) {
                try PipelineProbes(chain: "names-\(seed)", messageTypes: true).awaitRecorder(in: channel.pipeline)
            } else {
                try ChainTracing.withRecorder(Recorder(sink: InMemoryTraceSink())) {
                    try channel.pipeline.traceEventsNow(chain: "names-\(seed)")
                }
            }
            #expect(channel.pipeline.hasProbes)
            #expect(channel.pipeline.hasProbesByType)
            #expect(channel.pipeline.handlerNames().filter { !$0.hasPrefix(EventProbe.namePrefix) } == names)
            Self.expectLinkedContexts(of: channel.pipeline, named: channel.pipeline.handlerNames(), seed: seed)
            _ = try? channel.finish()
        }

        /// The contexts the probes read from the pipeline's private links (a speed trick: ``ReflectedLinks``) are
        /// the ones its description names, in order, the same objects — and the links are still where they are looked
        /// for: a NIO that moved them fails here, rather than making every traced connection slower unseen.
        static func expectLinkedContexts(of pipeline: ChannelPipeline, named names: [String], seed: UInt64) {
            #expect(ChannelPipeline.contextLinks.isFound, "NIO no longer links a pipeline's contexts by head and next")
            let linked = pipeline.linkedHandlerContexts()
            let described = pipeline.describedHandlerContexts()
            #expect(linked?.map(\.name) == names, "seed \(seed)")
            #expect(described.map(\.name) == names, "seed \(seed)")
            #expect(linked.map { zip($0, described).allSatisfy { $0 === $1 } } == true, "seed \(seed)")
            // The walk `hasProbes` makes at every new connection goes through, rather than falling back unseen.
            #expect(ChannelPipeline.contextLinks.contains(in: pipeline, limit: 1_000_000) { _ in false } == false)
        }

        @Test("armed by a write at the tail: the write and its flush are traced and reach the channel")
        func armedByAWrite() throws {
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandlers([LineEncoder(), PassOn<ByteBuffer>()])
            try PipelineProbes(chain: "armed-write", messageTypes: true).awaitRecorder(in: channel.pipeline)
            let traces = try captureTraces(of: ["armed-write"]) {
                try channel.writeOutbound(channel.allocator.buffer(string: "out\n"))
            }
            let written: ByteBuffer? = try channel.readOutbound()
            #expect(written.map { String(buffer: $0) } == "out\n")
            let write = try #require(traces.first { $0.commandKind == "write ByteBuffer" }, "\(traces)")
            #expect(hops(write) == ["LineEncoder (write):passed", "Channel (write):accepted"], "\(write)")
            #expect(traces.contains { $0.commandKind == "flush" })
        }
    }
#endif
