#if Hummingbird
    import ChainTrace
    import ChainTraceHummingbird
    import ChainTraceTestSupport
    import HTTPTypes
    import Hummingbird
    import HummingbirdTesting
    import Testing

    /// One request, and the path and decisions its trace must show.
    struct ExpectedRequest: Sendable, CustomStringConvertible {
        let uri: String
        var headers: HTTPFields = [:]
        let status: HTTPResponse.Status
        let kind: String
        let hops: [String]
        let outcome: Outcome

        var description: String { uri }
    }

    private let passed = Decision.passed
    private let routerHops = ["StampMiddleware", "RecoveringMiddleware"]

    /// Every kind of request the issue names: through to the endpoint, rejected by a middleware, thrown with its
    /// status, recovered by a middleware, not found; and a route added before a middleware lacks it.
    let expectedRequests: [ExpectedRequest] = [
        ExpectedRequest(
            uri: "/hello",
            status: .ok,
            kind: "GET /hello",
            hops: routerHops + ["GET /hello"],
            outcome: .accepted(by: "GET /hello")
        ),
        ExpectedRequest(
            uri: "/users/42",
            status: .ok,
            kind: "GET /users/{id}",
            hops: routerHops + ["GET /users/{id}"],
            outcome: .accepted(by: "GET /users/{id}")
        ),
        ExpectedRequest(
            uri: "/api/secret",
            status: .unauthorized,
            kind: "GET /api/secret",
            hops: routerHops + ["TokenMiddleware"],
            outcome: .accepted(by: "TokenMiddleware")
        ),
        ExpectedRequest(
            uri: "/api/secret",
            headers: [.init("x-token")!: "good"],
            status: .ok,
            kind: "GET /api/secret",
            hops: routerHops + ["TokenMiddleware", "GET /api/secret"],
            outcome: .accepted(by: "GET /api/secret")
        ),
        ExpectedRequest(
            uri: "/fail",
            status: .conflict,
            kind: "GET /fail",
            hops: routerHops + ["GET /fail"],
            outcome: .failed(at: "GET /fail", error: "")
        ),
        ExpectedRequest(
            uri: "/recoverable",
            status: .serviceUnavailable,
            kind: "GET /recoverable",
            hops: routerHops + ["GET /recoverable"],
            outcome: .accepted(by: "RecoveringMiddleware")
        ),
        ExpectedRequest(
            uri: "/nowhere",
            status: .notFound,
            kind: "GET NotFound",
            hops: routerHops + ["EmptyMiddleware", "NotFound"],
            outcome: .failed(at: "NotFound", error: "")
        ),
        ExpectedRequest(
            uri: "/late",
            status: .ok,
            kind: "GET /late",
            hops: routerHops + ["EmptyMiddleware", "GET /late"],
            outcome: .accepted(by: "GET /late")
        ),
    ]

    /// Checks `trace` against `expected`: path, kind, outcome, each hop's decision, and self times that add up.
    func check(_ trace: Trace, against expected: ExpectedRequest, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(trace.chain == "HTTP", sourceLocation: sourceLocation)
        #expect(trace.commandKind == expected.kind, sourceLocation: sourceLocation)
        #expect(trace.path == expected.hops, "\(expected.uri)", sourceLocation: sourceLocation)
        switch (trace.outcome, expected.outcome) {
        case (.failed(let at, let error), .failed(let expectedAt, _)):
            #expect(at == expectedAt, sourceLocation: sourceLocation)
            #expect(!error.isEmpty, "a failure names its error", sourceLocation: sourceLocation)
        default:
            #expect(trace.outcome == expected.outcome, "\(expected.uri)", sourceLocation: sourceLocation)
        }
        // Every hop before the last passed the request on; the last decided.
        for hop in trace.hops.dropLast()
        where !(expected.uri == "/recoverable" && hop.handler == "RecoveringMiddleware") {
            #expect(hop.decision == passed, "\(expected.uri): \(hop.handler)", sourceLocation: sourceLocation)
        }
        expectNestedHopsAddUp(trace, sourceLocation: sourceLocation)
    }

    /// Sends `expected`'s request to `app` (in process or live, as `setup` says) under a recorder of its own, and
    /// checks its one trace against `expected`.
    func expectOneTrace(
        of app: some ApplicationProtocol,
        setup: TestingSetup,
        expected: ExpectedRequest,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let sink = InMemoryTraceSink()
        try await ChainTracing.withRecorder(Recorder(sink: sink)) {
            try await app.test(setup) { client in
                let response = try await client.execute(uri: expected.uri, method: .get, headers: expected.headers)
                #expect(response.status == expected.status, sourceLocation: sourceLocation)
            }
        }
        let traces = sink.traces
        try #require(traces.count == 1, "one request, one trace: \(traces.map(\.description))")
        check(traces[0], against: expected, sourceLocation: sourceLocation)
        if expected.uri == "/recoverable" {
            #expect(traces[0].hop("RecoveringMiddleware")?.decision == .accepted, sourceLocation: sourceLocation)
            #expect(traces[0].hop("GET /recoverable")?.decision == .failed, sourceLocation: sourceLocation)
        }
    }

    @Suite("Hummingbird: TracingRouter traces every middleware and endpoint", .tags(.concurrent))
    struct TracingRouterTests {
        @Test(
            "each kind of request has its exact path and decisions, in process and live on loopback",
            arguments: [TestingSetup.router, .ahc(.http)],
            expectedRequests
        )
        func pathAndDecisions(setup: TestingSetup, expected: ExpectedRequest) async throws {
            let app = Application(
                router: makeTestRouter(),
                configuration: .init(address: .hostname("127.0.0.1", port: 0))
            )
            try await expectOneTrace(of: app, setup: setup, expected: expected)
        }

        @Test("a result-builder stack is a hop per middleware")
        func builderStack() async throws {
            let router = TracingRouter(context: BasicRequestContext.self)
            router.addMiddleware {
                StampMiddleware()
                EmptyMiddleware()
                TokenMiddleware()
            }
            router.get("x") { _, _ in "x" }
            let sink = InMemoryTraceSink()
            try await ChainTracing.withRecorder(Recorder(sink: sink)) {
                try await Application(router: router).test(.router) { client in
                    _ = try await client.execute(uri: "/x", method: .get, headers: [.init("x-token")!: "good"])
                }
            }
            #expect(sink.traces.map(\.path) == [["StampMiddleware", "EmptyMiddleware", "TokenMiddleware", "GET /x"]])
        }

        @Test("nested groups run the outer group's middleware, then their own")
        func nestedGroups() async throws {
            let router = TracingRouter(context: BasicRequestContext.self, chain: "api")
            let outer = router.group("v1").add(middleware: StampMiddleware())
            outer.group("admin").add(middleware: TokenMiddleware()).get("users") { _, _ in "users" }
            outer.get("ping") { _, _ in "pong" }
            let sink = InMemoryTraceSink()
            try await ChainTracing.withRecorder(Recorder(sink: sink)) {
                try await Application(router: router).test(.router) { client in
                    _ = try await client.execute(uri: "/v1/admin/users", method: .get)
                    _ = try await client.execute(uri: "/v1/ping", method: .get)
                }
            }
            #expect(
                sink.traces.map(\.path) == [
                    ["StampMiddleware", "TokenMiddleware"], ["StampMiddleware", "GET /v1/ping"],
                ]
            )
            #expect(sink.traces.map(\.chain) == ["api", "api"])
            #expect(sink.traces.first?.outcome == .accepted(by: "TokenMiddleware"))
        }

        @Test(
            "500 concurrent requests: each its own trace, none mixed, none lost",
            arguments: [TestingSetup.router, .ahc(.http)]
        )
        func concurrentRequests(setup: TestingSetup) async throws {
            let count = 500
            let sink = InMemoryTraceSink()
            let app = Application(
                router: makeTestRouter(),
                configuration: .init(address: .hostname("127.0.0.1", port: 0))
            )
            try await ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) {
                try await app.test(setup) { client in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        // At most 50 at once: bounded load for the live server.
                        for index in 0..<count {
                            if index >= 50 { try await group.next() }
                            group.addTask {
                                let expected = expectedRequests[index % expectedRequests.count]
                                let uri = expected.uri == "/users/42" ? "/users/\(index)" : expected.uri
                                let response = try await client.execute(
                                    uri: uri,
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
            var userIDs: [String] = []
            for trace in traces {
                guard case .object(let payload) = trace.payload, case .string(let path) = payload["path"] else {
                    Issue.record("no payload path in \(trace)")
                    continue
                }
                let expected = expectedRequests.first {
                    $0.uri == path || (path.hasPrefix("/users/") && $0.kind == "GET /users/{id}")
                }
                guard let expected else {
                    Issue.record("unexpected path \(path)")
                    continue
                }
                if path.hasPrefix("/users/") { userIDs.append(String(path.dropFirst("/users/".count))) }
                // The two /api/secret requests differ only in their token: the path tells them apart.
                if path == "/api/secret" {
                    #expect(trace.path.last == "TokenMiddleware" || trace.path.last == "GET /api/secret")
                } else {
                    check(trace, against: expected)
                }
            }
            let expectedUserIDs = (0..<count).filter {
                expectedRequests[$0 % expectedRequests.count].uri == "/users/42"
            }
            #expect(userIDs.sorted() == expectedUserIDs.map(String.init).sorted())
        }

        @Test("payloads carry method, path and headers, never credentials")
        func payloadRedaction() async throws {
            let sink = InMemoryTraceSink()
            try await ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) {
                try await Application(router: makeTestRouter()).test(.router) { client in
                    _ = try await client.execute(
                        uri: "/hello?lang=en",
                        method: .get,
                        headers: [
                            .authorization: "Bearer secret-token", .cookie: "session=secret", .accept: "text/plain",
                            .init("x-api-key")!: "secret-key",
                        ]
                    )
                }
            }
            let payload = try #require(sink.traces.first?.payload)
            let text = "\(payload)"
            #expect(!text.contains("secret"), "\(text)")
            guard case .object(let object) = payload, case .object(let headers) = object["headers"] else {
                Issue.record("payload is not an object with headers: \(text)")
                return
            }
            #expect(object["method"] == .string("GET"))
            #expect(object["path"] == .string("/hello"))
            #expect(object["query"] == .string("lang=en"))
            #expect(object["route"] == .string("/hello"))
            #expect(headers["accept"] == .string("text/plain"))
        }

        @Test("with no recorder in force nothing is traced and every response is the same")
        func noRecorder() async throws {
            let sink = InMemoryTraceSink()
            try await Application(router: makeTestRouter()).test(.router) { client in
                for expected in expectedRequests {
                    let response = try await client.execute(uri: expected.uri, method: .get, headers: expected.headers)
                    #expect(response.status == expected.status, "\(expected.uri)")
                }
            }
            #expect(sink.traces.isEmpty)
        }
    }
#endif
