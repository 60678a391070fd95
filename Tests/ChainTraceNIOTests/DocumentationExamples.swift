// swift-format-ignore-file
// (Each `// doc:` block is compared line by line with the Markdown that shows it: kept as the docs show it.)
#if NIO
// doc: nio-imports
import ChainTrace
import ChainTraceNIO
import NIOCore
import NIOPosix
// end
import ChainTraceTesting
import NIOEmbedded
import NIOExtras
import Testing

/// Compiled, not run: it serves until the process ends.
func makeTracedServer(group: MultiThreadedEventLoopGroup) async throws -> any Channel {
    // doc: nio-server
    let server = try await ServerBootstrap(group: group)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                try channel.pipeline.syncOperations.addHandler(UppercaseHandler())
                try channel.pipeline.traceEventsNow()   // the one line: every handler above, traced
            }
        }
        .bind(host: "127.0.0.1", port: 7000).get()
    // end
    return server
}

@Suite("The NIO examples the docs show")
struct NIODocumentationExamples {
    @Test func traceAnEmbeddedChannel() throws {
        // doc: nio-test
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
        try channel.pipeline.traceEventsNow(chain: "lines")
        let traces = try captureTraces(of: ["lines"]) {
            try channel.writeInbound(channel.allocator.buffer(string: "half a li"))
        }
        // The decoder kept the partial line: it took the read.
        expectHandled(traces[0], by: "ByteToMessageHandler<LineBasedFrameDecoder>")
        // end
    }
}
#endif
