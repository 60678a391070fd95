#if Hummingbird
    import ChainTrace
    import ChainTraceHummingbird
    import ChainTraceTestSupport
    import HTTPTypes
    import Hummingbird
    import HummingbirdRouter
    import HummingbirdTesting
    import Testing

    /// The test app of ``makeTestRouter()`` written with HummingbirdRouter's result builder, where every route is a
    /// link of the stack too: a request passes the routes before its own.
    func makeTestRouterBuilder(chain: String = "HTTP") -> TracedRouterBuilder<BasicRouterRequestContext> {
        RouterBuilder(context: BasicRouterRequestContext.self) {
            StampMiddleware()
            RecoveringMiddleware()
            Get("hello") { _, _ in "hi" }
            Get("users/:id") { _, context in try context.parameters.require("id") }
            Get("fail") { _, _ -> String in throw HTTPError(.conflict) }
            Get("recoverable") { _, _ -> String in throw RecoverableError() }
            RouteGroup("api") {
                TokenMiddleware()
                Get("secret") { _, _ in "secret" }
            }
            EmptyMiddleware()
            Get("late") { _, _ in "late" }
        }
        .traced(chain: chain)
    }

    /// The routes a request passes before the group, in order.
    private let routesBeforeGroup = ["GET /hello", "GET /users/{id}", "GET /fail", "GET /recoverable"]
    private let stackStart = ["StampMiddleware", "RecoveringMiddleware"]

    /// Every kind of request of ``expectedRequests``, as the builder's stack runs it.
    let expectedBuilderRequests: [ExpectedRequest] = [
        ExpectedRequest(
            uri: "/hello",
            status: .ok,
            kind: "GET /hello",
            hops: stackStart + ["GET /hello"],
            outcome: .accepted(by: "GET /hello")
        ),
        ExpectedRequest(
            uri: "/users/42",
            status: .ok,
            kind: "GET /users/{id}",
            hops: stackStart + ["GET /hello", "GET /users/{id}"],
            outcome: .accepted(by: "GET /users/{id}")
        ),
        ExpectedRequest(
            uri: "/fail",
            status: .conflict,
            kind: "GET /fail",
            hops: stackStart + ["GET /hello", "GET /users/{id}", "GET /fail"],
            outcome: .failed(at: "GET /fail", error: "")
        ),
        ExpectedRequest(
            uri: "/recoverable",
            status: .serviceUnavailable,
            kind: "GET /recoverable",
            hops: stackStart + routesBeforeGroup,
            outcome: .accepted(by: "RecoveringMiddleware")
        ),
        ExpectedRequest(
            uri: "/api/secret",
            status: .unauthorized,
            kind: "GET /api",
            hops: stackStart + routesBeforeGroup + ["Group /api", "TokenMiddleware"],
            outcome: .accepted(by: "TokenMiddleware")
        ),
        ExpectedRequest(
            uri: "/api/secret",
            headers: [.init("x-token")!: "good"],
            status: .ok,
            kind: "GET /api/secret",
            hops: stackStart + routesBeforeGroup + ["Group /api", "TokenMiddleware", "GET /api/secret"],
            outcome: .accepted(by: "GET /api/secret")
        ),
        ExpectedRequest(
            uri: "/late",
            status: .ok,
            kind: "GET /late",
            hops: stackStart + routesBeforeGroup + ["Group /api", "EmptyMiddleware", "GET /late"],
            outcome: .accepted(by: "GET /late")
        ),
        ExpectedRequest(
            uri: "/nowhere",
            status: .notFound,
            kind: "GET NotFound",
            hops: stackStart + routesBeforeGroup + ["Group /api", "EmptyMiddleware", "GET /late", "NotFound"],
            outcome: .failed(at: "NotFound", error: "")
        ),
    ]

    @Suite("Hummingbird: a RouterBuilder's stack, traced", .tags(.concurrent))
    struct TracedRouterBuilderTests {
        @Test(
            "each kind of request has its exact path and decisions, in process and live on loopback",
            arguments: [TestingSetup.router, .ahc(.http)],
            expectedBuilderRequests
        )
        func pathAndDecisions(setup: TestingSetup, expected: ExpectedRequest) async throws {
            let app = Application(
                router: makeTestRouterBuilder(),
                configuration: .init(address: .hostname("127.0.0.1", port: 0))
            )
            try await expectOneTrace(of: app, setup: setup, expected: expected)
        }

        @Test("a group in a group, and a middleware of the group after its routes, are hops in place")
        func nestedGroups() async throws {
            let router = RouterBuilder(context: BasicRouterRequestContext.self) {
                RouteGroup("v1") {
                    StampMiddleware()
                    RouteGroup("admin") {
                        TokenMiddleware()
                        Get("users") { _, _ in "users" }
                    }
                    Get("ping") { _, _ in "pong" }
                }
            }
            let sink = InMemoryTraceSink()
            try await ChainTracing.withRecorder(Recorder(sink: sink)) {
                try await Application(router: router.traced(chain: "api")).test(.router) { client in
                    let admin = try await client.execute(uri: "/v1/admin/users", method: .get)
                    #expect(admin.status == .unauthorized)
                    let ping = try await client.execute(uri: "/v1/ping", method: .get)
                    #expect(ping.status == .ok)
                }
            }
            #expect(
                sink.traces.map(\.path) == [
                    ["Group /v1", "StampMiddleware", "Group /v1/admin", "TokenMiddleware"],
                    ["Group /v1", "StampMiddleware", "Group /v1/admin", "GET /v1/ping"],
                ]
            )
            #expect(sink.traces.map(\.chain) == ["api", "api"])
            #expect(sink.traces.map(\.commandKind) == ["GET /v1/admin", "GET /v1/ping"])
            // The inner group passed the request on (out of its stack, to the route after it).
            #expect(sink.traces.last?.hop("Group /v1/admin")?.decision == .passed)
            #expect(sink.traces.last?.outcome == .accepted(by: "GET /v1/ping"))
            for trace in sink.traces { expectNestedHopsAddUp(trace) }
        }

        @Test("200 concurrent requests: each its own trace, none mixed, none lost", arguments: [TestingSetup.router])
        func concurrentRequests(setup: TestingSetup) async throws {
            let count = 200
            let sink = InMemoryTraceSink()
            try await ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) {
                try await Application(router: makeTestRouterBuilder()).test(setup) { client in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<count {
                            if index >= 50 { try await group.next() }
                            group.addTask {
                                let expected = expectedBuilderRequests[index % expectedBuilderRequests.count]
                                let response = try await client.execute(
                                    uri: expected.uri,
                                    method: .get,
                                    headers: expected.headers
                                )
                                #expect(response.status == expected.status)
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            }
            let traces = sink.traces
            #expect(traces.count == count)
            #expect(Set(traces.compactMap(\.commandID)).count == count, "every request id once")
            for trace in traces {
                // The two /api/secret requests differ only in their token: the path's end tells them apart.
                let expected = expectedBuilderRequests.first { $0.hops == trace.path }
                guard let expected else {
                    Issue.record("unexpected path \(trace.path)")
                    continue
                }
                check(trace, against: expected)
            }
        }

        @Test(
            "a controller, an optional element, an array of middleware and a route's own middleware",
            arguments: [false, true]
        )
        func builderShapes(withAudit: Bool) async throws {
            let router = RouterBuilder(context: BasicRouterRequestContext.self) {
                if withAudit { StampMiddleware() }
                for _ in 0..<2 { EmptyMiddleware() }
                OrdersController()
                Get("guarded") {
                    TokenMiddleware()
                    Handle { _, _ in "guarded" }
                }
            }
            let sink = InMemoryTraceSink()
            try await ChainTracing.withRecorder(Recorder(sink: sink)) {
                try await Application(router: router.traced()).test(.router) { client in
                    let order = try await client.execute(uri: "/orders/5", method: .get)
                    #expect(String(buffer: order.body) == "5")
                    let guarded = try await client.execute(uri: "/guarded", method: .get)
                    #expect(guarded.status == .unauthorized)
                }
            }
            let start = (withAudit ? ["StampMiddleware"] : []) + ["EmptyMiddleware", "EmptyMiddleware"]
            #expect(
                sink.traces.map(\.path) == [
                    start + ["Group /orders", "GET /orders/{id}"],
                    // The route's own middleware answered: part of the route's hop.
                    start + ["Group /orders", "GET /guarded"],
                ]
            )
            #expect(sink.traces.map(\.commandKind) == ["GET /orders/{id}", "GET /guarded"])
            #expect(sink.traces.last?.outcome == .accepted(by: "GET /guarded"))
        }

        @Test("the app sees the same endpoint paths, statuses and bodies traced as untraced")
        func sameBehaviour() async throws {
            let router = RouterBuilder(context: BasicRouterRequestContext.self) {
                EndpointEchoMiddleware()
                RouteGroup("v1") {
                    EndpointEchoMiddleware()
                    RouteGroup("admin") {
                        TokenMiddleware()
                        Get("users/:id") { _, context in context.endpointPath ?? "-" }
                    }
                    Get("ping") { _, context in context.endpointPath ?? "-" }
                }
                Get("top") { _, context in context.endpointPath ?? "-" }
            }
            // A token for every request but the one the group's middleware answers itself.
            let uris = [
                "/v1/admin/users/7", "/v1/admin/users/8?no-token", "/v1/ping", "/v1/admin/nothing", "/top", "/nothing",
            ]
            // The router as written, against its traced form under a recorder.
            func responses(of app: some ApplicationProtocol) async throws -> [String] {
                try await app.test(.router) { client in
                    var seen: [String] = []
                    for uri in uris {
                        let token: HTTPFields = uri.hasSuffix("?no-token") ? [:] : [.init("x-token")!: "good"]
                        let response = try await client.execute(uri: uri, method: .get, headers: token)
                        let echoed = response.headers[values: .init("x-endpoint")!].joined(separator: ",")
                        seen.append("\(uri) \(response.status.code) \(String(buffer: response.body)) [\(echoed)]")
                    }
                    return seen
                }
            }
            let untraced = try await responses(of: Application(router: router))
            let sink = InMemoryTraceSink()
            let traced = try await ChainTracing.withRecorder(Recorder(sink: sink)) {
                try await responses(of: Application(router: router.traced()))
            }
            #expect(traced == untraced)
            #expect(sink.traces.count == uris.count)
            #expect(
                untraced.first
                    == "/v1/admin/users/7 200 /v1/admin/users/{id} [/v1/admin/users/{id},/v1/admin/users/{id}]"
            )
            #expect(untraced.dropFirst().first == "/v1/admin/users/8?no-token 401  [/v1/admin,/v1/admin]")
        }

        @Test("with no recorder in force nothing is traced and every response is the same")
        func noRecorder() async throws {
            try await Application(router: makeTestRouterBuilder()).test(.router) { client in
                for expected in expectedBuilderRequests {
                    let response = try await client.execute(uri: expected.uri, method: .get, headers: expected.headers)
                    #expect(response.status == expected.status, "\(expected.uri)")
                }
            }
        }
    }

    /// A controller of the app's, as HummingbirdRouter's docs write one.
    struct OrdersController: RouterController {
        typealias Context = BasicRouterRequestContext

        var body: some RouterMiddleware<Context> {
            RouteGroup("orders") {
                Get(":id") { _, context in try context.parameters.require("id") }
            }
        }
    }
#endif
