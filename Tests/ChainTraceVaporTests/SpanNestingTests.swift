#if Vapor
    import ChainTrace
    import ChainTraceDistributedTracing
    import ChainTraceTestSupport
    import ChainTraceTraceLog
    import ChainTraceVapor
    import Foundation
    import InMemoryTracing
    import Testing
    import Tracing
    import Vapor
    import VaporTesting

    /// What Vapor's `TracingMiddleware` does, with a tracer of the test's own instead of the process's bootstrapped
    /// one (which a test may not set: every other test would trace into it): a server span around the middleware
    /// after it, its context the request's `serviceContext` meanwhile.
    struct RequestSpanMiddleware: AsyncMiddleware {
        let tracer: InMemoryTracer

        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            let parent = request.serviceContext
            return try await tracer.withSpan("request \(request.url.path)", context: parent, ofKind: .server) { span in
                request.serviceContext = span.context
                defer { request.serviceContext = parent }
                return try await next.respond(to: request)
            }
        }
    }

    /// Where each command span of `spans` sits: the name of its parent span (`nil` at the top level) and the names
    /// of the hops under it, in the order they started.
    func commandPlacements(in spans: [FinishedInMemorySpan]) -> [(parent: String?, traceMatches: Bool, hops: [String])]
    {
        spans.filter { $0.operationName.hasPrefix("HTTP ") }
            .sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
            .map { command in
                let parent = spans.first { $0.spanID == command.parentSpanID }
                return (
                    parent?.operationName, parent.map { $0.traceID == command.traceID } ?? true,
                    descendants(of: command, in: spans).map(\.operationName)
                )
            }
    }

    @Suite("Vapor: a request's chain spans nest under the app's request span", .tags(.concurrent))
    struct VaporSpanNestingTests {
        /// The span middleware after Vapor's defaults, then a route group's token check: each command span is its
        /// request span's child, in its trace, whether the request was answered, rejected, failed or not found.
        @Test func commandSpansAreChildrenOfTheRequestSpan() async throws {
            let tracer = InMemoryTracer()
            try await withApp(configure: { app in
                configureTestApp(app)
                app.middleware.use(RequestSpanMiddleware(tracer: tracer))
            }) { app in
                try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                    try await app.testing().test(.GET, "/hello") { #expect($0.status == .ok) }
                    try await app.testing().test(.GET, "/api/secret") { #expect($0.status == HTTPStatus.unauthorized) }
                    try await app.testing().test(.GET, "/fail") { #expect($0.status == .conflict) }
                    try await app.testing().test(.GET, "/nowhere") { #expect($0.status == .notFound) }
                }
            }
            let placements = commandPlacements(in: tracer.finishedSpans)
            #expect(
                placements.map(\.parent) == [
                    "request /hello", "request /api/secret", "request /fail", "request /nowhere",
                ]
            )
            #expect(placements.allSatisfy { $0.traceMatches })
            let defaults = ["RouteLoggingMiddleware", "ErrorMiddleware", "StampMiddleware", "RecoveringMiddleware"]
            #expect(
                placements.map(\.hops) == [
                    defaults + ["RequestSpanMiddleware", "GET /hello"],
                    defaults + ["RequestSpanMiddleware", "TokenMiddleware"],
                    defaults + ["RequestSpanMiddleware", "GET /fail"],
                    defaults + ["RequestSpanMiddleware", "NotFound"],
                ]
            )
        }

        /// With no request span, a command span is at the top level, as before.
        @Test func withoutARequestSpanTheCommandSpanIsTopLevel() async throws {
            let tracer = InMemoryTracer()
            try await withApp(configure: { configureTestApp($0) }) { app in
                try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                    try await app.testing().test(.GET, "/hello") { #expect($0.status == .ok) }
                }
            }
            #expect(commandPlacements(in: tracer.finishedSpans).map(\.parent) == [nil])
        }

        /// The real thing, in a process of its own (the bootstrapped tracer is process-wide): Vapor's own
        /// `TracingMiddleware` at the beginning, as Vapor's docs place it, and an in-memory tracer bootstrapped.
        @Test func nestsUnderVaporsOwnTracingMiddleware() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let tracer = InMemoryTracer()
                InstrumentationSystem.bootstrap(tracer)
                try await withApp(configure: { app in
                    configureTestApp(app)
                    app.middleware.use(TracingMiddleware(), at: .beginning)
                }) { app in
                    try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink())) {
                        for uri in ["/hello", "/users/7", "/api/secret", "/fail", "/nowhere"] {
                            try await app.testing().test(.GET, uri) { _ in }
                        }
                    }
                }
                let placements = commandPlacements(in: tracer.finishedSpans)
                let parents = placements.map(\.parent)
                let expected = [
                    "GET /hello", "GET /users/:id", "GET /api/secret", "GET /fail", "vapor_route_undefined",
                ]
                if parents != expected || !placements.allSatisfy({ $0.traceMatches }) {
                    print("command spans' parents: \(parents), not \(expected)")
                }
                if !placements.allSatisfy({ $0.hops.first == "TracingMiddleware" }) {
                    print("hops: \(placements.map(\.hops))")
                }
            }
            #expect(childComplaint(result).isEmpty, "\(childComplaint(result))")
        }

        /// A trace log keeps each request's span (its `traceparent`), and the log's OTLP export puts each command
        /// under it, as `SpanTraceSink` does live: a tracer that propagates W3C Trace Context (as swift-otel's
        /// default propagator does) bootstrapped, Vapor's own `TracingMiddleware` at the beginning.
        @Test func aTraceLogKeepsEachRequestsSpanForTheOTLPExport() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let tracer = W3CInMemoryTracer()
                InstrumentationSystem.bootstrap(tracer)
                let path = try TestFiles.newDirectory("traceparent").appendingPathComponent("requests.jsonl").path
                let log = try TraceLogSink(path: path)
                try await withApp(configure: { app in
                    configureTestApp(app)
                    app.middleware.use(TracingMiddleware(), at: .beginning)
                }) { app in
                    try await ChainTracing.withRecorder(Recorder(sink: log)) {
                        for uri in ["/hello", "/users/7", "/api/secret", "/fail", "/nowhere"] {
                            try await app.testing().test(.GET, uri) { _ in }
                        }
                    }
                }
                try log.close()
                // Vapor names a request's span by its route, and one that matched none `vapor_route_undefined`.
                let complaints = requestSpanComplaints(logPath: path, spans: tracer.finishedSpans) { trace in
                    trace.commandKind == "GET NotFound" ? "vapor_route_undefined" : trace.commandKind
                }
                for complaint in complaints { print(complaint) }
            }
            #expect(childComplaint(result).isEmpty, "\(childComplaint(result))")
        }
    }
#endif
