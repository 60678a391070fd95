// swift-format-ignore-file
// (Each `// doc:` block is compared line by line with the Markdown that shows it: kept as the docs show it.)
#if GRPC
// doc: grpc-imports
import ChainTrace
import ChainTraceGRPC
import ChainTraceTraceLog
import GRPCCore
// end
import ChainTraceTesting
import GRPCInProcessTransport
import Testing

/// Compiled, not run: bootstrapping would trace every other test's RPCs too.
func runTracedGRPCServer(transport: some ServerTransport, service: some RegistrableRPCService) async throws {
    // doc: grpc-server
    let log = try TraceLogSink(path: "rpcs.traces.jsonl")
    ChainTracing.bootstrap(Recorder(sink: log))
    let server = GRPCServer(
        transport: transport,
        services: [service],
        interceptors: GRPCTracing.server([RequestLogInterceptor(), AuthInterceptor()])  // the one line
    )
    try await server.serve()
    try log.close()
    // end
}

@Suite("The gRPC examples the docs show")
struct GRPCDocumentationExamples {
    @Test func captureTracesAroundInProcessCalls() async throws {
        // doc: grpc-test
        let transport = InProcessTransport()
        let traces = try await captureTraces {
            try await withGRPCServer(
                transport: transport.server,
                services: [EchoService()],
                interceptors: GRPCTracing.server([RequestLogInterceptor(), AuthInterceptor()])
            ) { _ in
                try await withGRPCClient(transport: transport.client) { client in
                    let answer = try await client.unary(
                        request: ClientRequest(message: "hi"),   // no authorization: refused
                        descriptor: EchoService.get,
                        serializer: TextSerializer(),
                        deserializer: TextDeserializer(),
                        options: .defaults
                    ) { response in response.accepted.flatMap { $0.message } }
                    #expect((try? answer.get()) == nil)
                }
            }
        }
        expectHandled(traces[0], by: "AuthInterceptor")
        #expect(traces[0].path == ["RequestLogInterceptor", "AuthInterceptor"])
        // end
    }
}
#endif
