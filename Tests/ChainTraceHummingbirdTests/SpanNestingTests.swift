#if Hummingbird
    import ChainTrace
    import ChainTraceDistributedTracing
    import ChainTraceHummingbird
    import ChainTraceTestSupport
    import ChainTraceTraceLog
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import InMemoryTracing
    import Testing
    import Tracing

    /// What Hummingbird's `TracingMiddleware` does, with a tracer of the test's own instead of the process's
    /// bootstrapped one (which a test may not set: every other test would trace into it): a server span around the
    /// middleware after it, its context bound as the current `ServiceContext`.
    struct RequestSpanMiddleware<Context: RequestContext>: RouterMiddleware {
        let tracer: InMemoryTracer

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            try await tracer.withSpan("request \(request.uri.path)", ofKind: .server) { _ in
                try await next(request, context)
            }
        }
    }

    /// Spans a command made: its own span and, under it, its hops'.
    struct CommandSpans {
        let request: FinishedInMemorySpan
        let command: FinishedInMemorySpan
        let hops: [FinishedInMemorySpan]
    }

    /// The spans of each request span in `spans`: the command span whose parent it is, and that span's children.
    func commandSpans(in spans: [FinishedInMemorySpan]) -> [CommandSpans] {
        spans.filter { $0.operationName.hasPrefix("request ") }.compactMap { request in
            let commands = spans.filter { $0.parentSpanID == request.spanID && $0.operationName.hasPrefix("HTTP ") }
            guard commands.count == 1, let command = commands.first else { return nil }
            return CommandSpans(request: request, command: command, hops: descendants(of: command, in: spans))
        }
    }

    @Suite("Hummingbird: a request's chain spans nest under the app's request span", .tags(.concurrent))
    struct HummingbirdSpanNestingTests {
        /// CORS before the request span (its hop starts outside it), then the span, then authentication; every
        /// request's command span is the request span's child, in its trace, and holds the request's hops.
        @Test func commandSpansAreChildrenOfTheRequestSpan() async throws {
            let tracer = InMemoryTracer()
            let router = TracingRouter(context: BasicRequestContext.self)
            router.add(middleware: CORSMiddleware())
            router.add(middleware: RequestSpanMiddleware(tracer: tracer))
            router.group("api")
                .add(middleware: AuthMiddleware())
                .get("orders/:id") { _, context in try context.parameters.require("id") }
            let app = Application(router: router)
            try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                try await app.test(.router) { client in
                    let authorized = try await client.execute(
                        uri: "/api/orders/7",
                        method: .get,
                        headers: [.authorization: "Bearer good"]
                    )
                    #expect(authorized.status == .ok)
                    let rejected = try await client.execute(uri: "/api/orders/8", method: .get)
                    #expect(rejected.status == .unauthorized)
                    let missing = try await client.execute(uri: "/nowhere", method: .get)
                    #expect(missing.status == .notFound)
                }
            }
            let spans = tracer.finishedSpans
            let requests = commandSpans(in: spans)
            #expect(requests.count == 3, "\(spans.map { "\($0.operationName) ← \($0.parentSpanID ?? "-")" })")
            for request in requests {
                #expect(request.command.traceID == request.request.traceID)
                #expect(request.hops.allSatisfy { $0.traceID == request.request.traceID })
            }
            #expect(
                requests.map { $0.hops.map(\.operationName) } == [
                    ["CORSMiddleware", "RequestSpanMiddleware", "AuthMiddleware", "GET /api/orders/{id}"],
                    ["CORSMiddleware", "RequestSpanMiddleware", "AuthMiddleware"],
                    ["CORSMiddleware", "RequestSpanMiddleware", "NotFound"],
                ]
            )
            // Nothing else was made: no command span at the top level beside the request spans.
            #expect(
                spans.filter { $0.parentSpanID == nil }.map(\.operationName).allSatisfy { $0.hasPrefix("request ") }
            )
        }

        /// With no span anywhere, a command span is at the top level, as before.
        @Test func withoutARequestSpanTheCommandSpanIsTopLevel() async throws {
            let tracer = InMemoryTracer()
            let router = TracingRouter(context: BasicRequestContext.self)
            router.add(middleware: CORSMiddleware())
            router.get("health") { _, _ in "ok" }
            let app = Application(router: router)
            try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                try await app.test(.router) { client in
                    _ = try await client.execute(uri: "/health", method: .get)
                }
            }
            let commands = tracer.finishedSpans.filter { $0.operationName.hasPrefix("HTTP ") }
            #expect(commands.count == 1)
            #expect(commands.first?.parentSpanID == nil)
        }

        /// Requests in parallel, each under its own request span: every command span under its own request's.
        @Test func concurrentRequestsNestUnderTheirOwnSpans() async throws {
            let tracer = InMemoryTracer()
            let router = TracingRouter(context: BasicRequestContext.self)
            router.add(middleware: RequestSpanMiddleware(tracer: tracer))
            router.get("items/:id") { _, context in try context.parameters.require("id") }
            let app = Application(router: router)
            let count = 200
            try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                try await app.test(.router) { client in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<count {
                            group.addTask {
                                let response = try await client.execute(uri: "/items/\(index)", method: .get)
                                #expect(response.status == .ok)
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            }
            let requests = commandSpans(in: tracer.finishedSpans)
            #expect(requests.count == count)
            #expect(Set(requests.map(\.request.spanID)).count == count)
            #expect(requests.allSatisfy { $0.command.traceID == $0.request.traceID && $0.hops.count == 2 })
        }

        /// Serves 20 requests for `/orders/:id` on a live server on 127.0.0.1, under a real client, half of them
        /// without the token `AuthMiddleware` wants: the app has `CORSMiddleware`, Hummingbird's own
        /// `TracingMiddleware` and `AuthMiddleware`, traced with `TracingRouter`. For the exit tests' children.
        static func serveOrdersUnderTracingMiddleware() async throws {
            let router = TracingRouter(context: BasicRequestContext.self)
            router.add(middleware: CORSMiddleware())
            router.add(middleware: TracingMiddleware())
            router.add(middleware: AuthMiddleware())
            router.get("orders/:id") { _, context in try context.parameters.require("id") }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in
                for index in 0..<20 {
                    let headers: HTTPFields = index.isMultiple(of: 2) ? [.authorization: "Bearer good"] : [:]
                    _ = try await client.execute(uri: "/orders/\(index)", method: .get, headers: headers)
                }
            }
        }

        /// The real thing, in a process of its own (the bootstrapped tracer is process-wide): Hummingbird's own
        /// `TracingMiddleware`, an in-memory tracer bootstrapped, a live server on 127.0.0.1 and a real client.
        @Test func nestsUnderHummingbirdsOwnTracingMiddleware() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let tracer = InMemoryTracer()
                InstrumentationSystem.bootstrap(tracer)
                try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink())) {
                    try await HummingbirdSpanNestingTests.serveOrdersUnderTracingMiddleware()
                }
                let spans = tracer.finishedSpans
                let servers = spans.filter { $0.kind == .server }
                let commands = spans.filter { $0.operationName.hasPrefix("HTTP ") }
                if servers.count != 20 || commands.count != 20 {
                    print("\(servers.count) server spans and \(commands.count) command spans, not 20 and 20")
                }
                for command in commands {
                    let parent = servers.first { $0.spanID == command.parentSpanID }
                    if parent?.traceID != command.traceID || parent?.operationName != "/orders/{id}" {
                        print("\(command.operationName) is not under a request span")
                    }
                    let hops = descendants(of: command, in: spans).map(\.operationName)
                    if !hops.starts(with: ["CORSMiddleware", "TracingMiddleware", "AuthMiddleware"]) {
                        print("\(command.operationName)'s hops: \(hops)")
                    }
                }
            }
            #expect(childComplaint(result).isEmpty, "\(childComplaint(result))")
        }

        /// A trace log keeps each request's span (its `traceparent`), and the log's OTLP export puts each command
        /// under it, as `SpanTraceSink` does live: a tracer that propagates W3C Trace Context (as swift-otel's
        /// default propagator does) bootstrapped, Hummingbird's `TracingMiddleware`, a live server and a real client.
        @Test func aTraceLogKeepsEachRequestsSpanForTheOTLPExport() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let tracer = W3CInMemoryTracer()
                InstrumentationSystem.bootstrap(tracer)
                let path = try TestFiles.newDirectory("traceparent").appendingPathComponent("requests.jsonl").path
                let log = try TraceLogSink(path: path)
                try await ChainTracing.withRecorder(Recorder(sink: log)) {
                    try await HummingbirdSpanNestingTests.serveOrdersUnderTracingMiddleware()
                }
                try log.close()
                let complaints = requestSpanComplaints(logPath: path, spans: tracer.finishedSpans) { _ in
                    "/orders/{id}"
                }
                for complaint in complaints { print(complaint) }
            }
            #expect(childComplaint(result).isEmpty, "\(childComplaint(result))")
        }
    }
#endif
