// swift-format-ignore-file
// (Each `// doc:` block is compared line by line with the Markdown that shows it: kept as the docs show it.)
#if Hummingbird
// doc: hummingbird-imports
import ChainTrace
import ChainTraceHummingbird
import ChainTraceTraceLog
import Hummingbird
// end
// doc: hummingbird-router-builder-import
import HummingbirdRouter
// end
import ChainTraceTesting
import HummingbirdTesting
import Testing

/// The app's own middleware, unaware of ChainTrace.
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.authorization] != nil else { return Response(status: .unauthorized) }
        return try await next(request, context)
    }
}

func buildTracedApp() -> some ApplicationProtocol {
    // doc: hummingbird-router
    let router = TracingRouter(context: BasicRequestContext.self)   // was: Router(context: BasicRequestContext.self)
    router.add(middleware: LogRequestsMiddleware(.info))
    router.add(middleware: CORSMiddleware())
    router.get("health") { _, _ in "ok" }
    router.group("api")
        .add(middleware: AuthMiddleware())
        .get("orders/:id") { _, context in try context.parameters.require("id") }
    let app = Application(router: router)
    // end
    return app
}

func buildTracedBuilderApp() -> some ApplicationProtocol {
    // doc: hummingbird-router-builder
    let router = RouterBuilder(context: BasicRouterRequestContext.self) {
        LogRequestsMiddleware(.info)
        Get("health") { _, _ in "ok" }
        RouteGroup("api") {
            AuthMiddleware()
            Get("orders/:id") { _, context in try context.parameters.require("id") }
        }
    }
    let app = Application(router: router.traced())   // was: Application(router: router)
    // end
    return app
}

/// Compiled, not run: bootstrapping would trace every other test's requests too.
func runTracedApp(_ app: some ApplicationProtocol) async throws {
    // doc: hummingbird-log
    let log = try TraceLogSink(path: "api.traces.jsonl")
    ChainTracing.bootstrap(Recorder(sink: log))
    try await app.runService()
    try log.close()
    // end
}

@Suite("The Hummingbird examples the docs show")
struct HummingbirdDocumentationExamples {
    @Test func captureTracesAroundInProcessRequests() async throws {
        let app = buildTracedApp()
        // doc: hummingbird-test
        let traces = try await captureTraces {
            try await app.test(.router) { client in
                let response = try await client.execute(uri: "/api/orders/7", method: .get)
                #expect(response.status == .unauthorized)
            }
        }
        expectHandled(traces[0], by: "AuthMiddleware")
        // end
        #expect(traces.map(\.path) == [["LogRequestsMiddleware", "CORSMiddleware", "AuthMiddleware"]])
    }

    @Test func aRouterBuilderStackTraced() async throws {
        let traces = try await captureTraces {
            try await buildTracedBuilderApp().test(.router) { client in
                let rejected = try await client.execute(uri: "/api/orders/7", method: .get)
                #expect(rejected.status == .unauthorized)
                let order = try await client.execute(uri: "/api/orders/7", method: .get, headers: [.authorization: "Bearer t"])
                #expect(String(buffer: order.body) == "7")
            }
        }
        expectHandled(traces[0], by: "AuthMiddleware")
        #expect(
            traces.map(\.path) == [
                ["LogRequestsMiddleware", "GET /health", "Group /api", "AuthMiddleware"],
                ["LogRequestsMiddleware", "GET /health", "Group /api", "AuthMiddleware", "GET /api/orders/{id}"],
            ]
        )
        #expect(traces.map(\.commandKind) == ["GET /api", "GET /api/orders/{id}"])
    }
}
#endif
