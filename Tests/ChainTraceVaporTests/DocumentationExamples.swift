// swift-format-ignore-file
// (Each `// doc:` block is compared line by line with the Markdown that shows it: kept as the docs show it.)
#if Vapor
// doc: vapor-imports
import ChainTrace
import ChainTraceTraceLog
import ChainTraceVapor
import Vapor
// end
import ChainTraceTesting
import Testing
import VaporTesting

/// The app's own middleware, unaware of ChainTrace.
struct AuthMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.headers.bearerAuthorization != nil else { return Response(status: .unauthorized) }
        return try await next.respond(to: request)
    }
}

// doc: vapor-configure
func configure(_ app: Application) async throws {
    app.traceRequests()                          // the one line
    app.middleware.use(CORSMiddleware())
    app.get("health") { _ in "ok" }
    app.grouped("api").grouped(AuthMiddleware())
        .get("orders", ":id") { request in try request.parameters.require("id") }
}
// end

/// Compiled, not run: bootstrapping would trace every other test's requests too.
func runTracedVaporApp() async throws {
    // doc: vapor-log
    let log = try TraceLogSink(path: "api.traces.jsonl")
    ChainTracing.bootstrap(Recorder(sink: log))
    let app = try await Application.make(.detect())
    try await configure(app)
    try await app.execute()
    try await app.asyncShutdown()
    try log.close()
    // end
}

@Suite("The Vapor examples the docs show")
struct VaporDocumentationExamples {
    @Test func captureTracesAroundInProcessRequests() async throws {
        // doc: vapor-test
        try await withApp(configure: configure) { app in
            let traces = try await captureTraces {
                try await app.testing().test(.GET, "api/orders/7") { response in
                    #expect(response.status == .unauthorized)
                }
            }
            expectHandled(traces[0], by: "AuthMiddleware")
            #expect(traces[0].path == ["RouteLoggingMiddleware", "ErrorMiddleware", "CORSMiddleware", "AuthMiddleware"])
        }
        // end
    }
}
#endif
