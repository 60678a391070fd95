#if Vapor
    import ChainTrace
    import ChainTraceTestSupport
    import ChainTraceTesting
    import ChainTraceVapor
    import Foundation
    import Testing
    import Vapor
    import VaporTesting

    /// One request, and the path and decisions its trace must show.
    struct ExpectedRequest: Sendable, CustomStringConvertible {
        let uri: String
        var headers: HTTPHeaders = [:]
        let status: HTTPResponseStatus
        let kind: String
        /// Each hop and its decision, outermost first.
        let hops: [(String, Decision)]
        let outcome: Outcome

        var description: String { uri }
    }

    private let defaults: [(String, Decision)] = [("RouteLoggingMiddleware", .passed), ("ErrorMiddleware", .passed)]
    private let appMiddleware: [(String, Decision)] = [("StampMiddleware", .passed), ("RecoveringMiddleware", .passed)]
    /// What a request turned into a response by Vapor's `ErrorMiddleware` went through before it.
    private let recoveredByErrorMiddleware: [(String, Decision)] =
        [("RouteLoggingMiddleware", .passed), ("ErrorMiddleware", .accepted)] + appMiddleware

    /// Every kind of request the issue names: through to the endpoint, rejected by a middleware, thrown with its
    /// status (and turned into a response by Vapor's `ErrorMiddleware`), recovered by the app's own, not found.
    let expectedRequests: [ExpectedRequest] = [
        ExpectedRequest(
            uri: "/hello",
            status: .ok,
            kind: "GET /hello",
            hops: defaults + appMiddleware + [("GET /hello", .accepted)],
            outcome: .accepted(by: "GET /hello")
        ),
        ExpectedRequest(
            uri: "/users/42",
            status: .ok,
            kind: "GET /users/:id",
            hops: defaults + appMiddleware + [("GET /users/:id", .accepted)],
            outcome: .accepted(by: "GET /users/:id")
        ),
        ExpectedRequest(
            uri: "/api/secret",
            status: .unauthorized,
            kind: "GET /api/secret",
            hops: defaults + appMiddleware + [("TokenMiddleware", .accepted)],
            outcome: .accepted(by: "TokenMiddleware")
        ),
        ExpectedRequest(
            uri: "/api/secret",
            headers: ["x-token": "good"],
            status: .ok,
            kind: "GET /api/secret",
            hops: defaults + appMiddleware + [("TokenMiddleware", .passed), ("GET /api/secret", .accepted)],
            outcome: .accepted(by: "GET /api/secret")
        ),
        ExpectedRequest(
            uri: "/fail",
            status: .conflict,
            kind: "GET /fail",
            hops: recoveredByErrorMiddleware + [("GET /fail", .failed)],
            outcome: .accepted(by: "ErrorMiddleware")
        ),
        ExpectedRequest(
            uri: "/recoverable",
            status: .serviceUnavailable,
            kind: "GET /recoverable",
            hops: defaults + [("StampMiddleware", .passed), ("RecoveringMiddleware", .accepted)]
                + [("GET /recoverable", .failed)],
            outcome: .accepted(by: "RecoveringMiddleware")
        ),
        ExpectedRequest(
            uri: "/nowhere",
            status: .notFound,
            kind: "GET NotFound",
            hops: recoveredByErrorMiddleware + [("NotFound", .failed)],
            outcome: .accepted(by: "ErrorMiddleware")
        ),
    ]

    /// Checks `trace` against `expected`: chain, kind, path, each hop's decision and nesting, the outcome, and self
    /// times that add up to the request's inclusive time.
    func check(
        _ trace: Trace,
        against expected: ExpectedRequest,
        chain: String = "HTTP",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(trace.chain == chain, sourceLocation: sourceLocation)
        #expect(trace.commandKind == expected.kind, sourceLocation: sourceLocation)
        #expect(trace.path == expected.hops.map(\.0), "\(expected.uri)", sourceLocation: sourceLocation)
        #expect(
            trace.hops.map(\.decision) == expected.hops.map(\.1),
            "\(expected.uri): \(trace.hops.map { "\($0.handler) \($0.decision)" })",
            sourceLocation: sourceLocation
        )
        #expect(trace.outcome == expected.outcome, "\(expected.uri)", sourceLocation: sourceLocation)
        expectNestedHopsAddUp(trace, sourceLocation: sourceLocation)
    }

    /// A live server on 127.0.0.1 for `app`, on a port of the system's choosing; stopped after `body`.
    func withLiveServer(_ app: Application, _ body: (String) async throws -> Void) async throws {
        try await app.asyncBoot()
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        do {
            let port = try #require(app.http.server.shared.localAddress?.port)
            try await body("http://127.0.0.1:\(port)")
        } catch {
            await app.server.shutdown()
            throw error
        }
        await app.server.shutdown()
    }

    /// A chain name no other test uses: a live server's requests are recorded on its event loops, outside the
    /// test's task, so a test takes them by naming their chain (`captureTraces(of:)`).
    func uniqueChain(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    @Suite("Vapor: traceRequests traces every middleware and endpoint", .tags(.concurrent))
    struct TraceRequestsTests {
        @Test("each kind of request has its exact path and decisions, in process", arguments: expectedRequests)
        func inProcess(expected: ExpectedRequest) async throws {
            try await withApp(configure: { configureTestApp($0) }) { app in
                let traces = try await captureTraces {
                    try await app.testing().test(.GET, expected.uri, headers: expected.headers) { response in
                        #expect(response.status == expected.status)
                    }
                }
                try #require(traces.count == 1, "one request, one trace: \(traces.map(\.description))")
                check(traces[0], against: expected)
            }
        }

        @Test("each kind of request has its exact path and decisions, live on loopback under a real client")
        func live() async throws {
            let chain = uniqueChain("vapor-live")
            try await withApp(configure: { configureTestApp($0, chain: chain) }) { app in
                let traces = try await captureTraces(of: [chain]) {
                    try await withLiveServer(app) { base in
                        for expected in expectedRequests {
                            let response = try await app.client.get(
                                URI(string: base + expected.uri),
                                headers: expected.headers
                            )
                            #expect(response.status == expected.status, "\(expected.uri)")
                        }
                    }
                }
                try #require(traces.count == expectedRequests.count, "\(traces.map(\.description))")
                // One connection at a time: the traces are in the order of the requests.
                for (trace, expected) in zip(traces, expectedRequests) { check(trace, against: expected, chain: chain) }
            }
        }

        @Test("nested groups run the outer group's middleware, then their own")
        func nestedGroups() async throws {
            try await withApp(configure: { app in
                app.traceRequests(chain: "api")
                app.logger.logLevel = .error
                app.middleware = Middlewares()
                let outer = app.grouped("v1").grouped(StampMiddleware())
                outer.grouped("admin").grouped(TokenMiddleware()).get("users") { _ in "users" }
                outer.get("ping") { _ in "pong" }
            }) { app in
                let traces = try await captureTraces {
                    try await app.testing().test(.GET, "/v1/admin/users") { _ in }
                    try await app.testing().test(.GET, "/v1/ping") { _ in }
                }
                #expect(
                    traces.map(\.path) == [
                        ["StampMiddleware", "TokenMiddleware"], ["StampMiddleware", "GET /v1/ping"],
                    ]
                )
                #expect(traces.map(\.chain) == ["api", "api"])
                #expect(traces.first?.outcome == .accepted(by: "TokenMiddleware"))
            }
        }

        @Test("an app with no middleware: the endpoint alone, and NotFound alone")
        func noMiddleware() async throws {
            try await withApp(configure: { app in
                app.traceRequests()
                app.middleware = Middlewares()
                app.get { _ in "root" }
            }) { app in
                let traces = try await captureTraces {
                    try await app.testing().test(.GET, "/") { #expect($0.status == .ok) }
                    // With no ErrorMiddleware nothing turns the route's absence into a response: the responder fails.
                    let request = Request(
                        application: app,
                        method: .GET,
                        url: "/missing",
                        on: app.eventLoopGroup.next()
                    )
                    await #expect(throws: RouteNotFound.self) { try await app.responder.respond(to: request).get() }
                }
                #expect(traces.map(\.path) == [["GET /"], ["NotFound"]])
                #expect(traces.map(\.commandKind) == ["GET /", "GET NotFound"])
                guard traces.count == 2, case .failed(let at, let error) = traces[1].outcome else {
                    Issue.record("the unmatched request did not fail: \(traces)")
                    return
                }
                #expect(at == "NotFound")
                #expect(error.contains("RouteNotFound"), "\(error)")
            }
        }

        @Test("500 concurrent requests: each its own trace, none mixed, none lost", arguments: [false, true])
        func concurrentRequests(live: Bool) async throws {
            let count = 500
            let chain = live ? uniqueChain("vapor-concurrent") : "HTTP"
            try await withApp(configure: { configureTestApp($0, chain: chain) }) { app in
                let send: @Sendable (String, HTTPHeaders) async throws -> HTTPResponseStatus
                if live {
                    try await app.asyncBoot()
                    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                    let port = try #require(app.http.server.shared.localAddress?.port)
                    send = { uri, headers in
                        try await app.client.get(URI(string: "http://127.0.0.1:\(port)\(uri)"), headers: headers).status
                    }
                } else {
                    let tester = try app.testing()
                    send = { uri, headers in
                        let response = try await tester.performTest(
                            request: TestingHTTPRequest(
                                method: .GET,
                                url: URI(string: uri),
                                headers: headers,
                                body: ByteBuffer()
                            )
                        )
                        return response.status
                    }
                }
                let traces = try await captureTraces(of: live ? [chain] : [], payloads: .captured) {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        // At most 50 at once: bounded load for the live server.
                        for index in 0..<count {
                            if index >= 50 { try await group.next() }
                            group.addTask {
                                let expected = expectedRequests[index % expectedRequests.count]
                                let uri = expected.uri == "/users/42" ? "/users/\(index)" : expected.uri
                                var headers = expected.headers
                                headers.replaceOrAdd(name: "x-request-id", value: "request-\(index)")
                                let status = try await send(uri, headers)
                                #expect(status == expected.status, "\(uri)")
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                if live { await app.server.shutdown() }
                #expect(traces.count == count)
                #expect(
                    Set(traces.compactMap(\.commandID)) == Set((0..<count).map { "request-\($0)" }),
                    "every request id once"
                )
                var userIDs: [String] = []
                for trace in traces {
                    guard case .object(let payload) = trace.payload, case .string(let path) = payload["path"] else {
                        Issue.record("no payload path in \(trace)")
                        continue
                    }
                    let index = Int(trace.commandID?.dropFirst("request-".count) ?? "") ?? -1
                    let expected = expectedRequests[max(index, 0) % expectedRequests.count]
                    if path.hasPrefix("/users/") { userIDs.append(String(path.dropFirst("/users/".count))) }
                    #expect(path == (expected.uri == "/users/42" ? "/users/\(index)" : expected.uri), "mixed: \(trace)")
                    check(trace, against: expected, chain: chain)
                }
                let expectedUserIDs = (0..<count).filter {
                    expectedRequests[$0 % expectedRequests.count].uri == "/users/42"
                }
                #expect(userIDs.sorted() == expectedUserIDs.map(String.init).sorted())
            }
        }

        @Test("payloads carry method, path and headers, never credentials")
        func payloadRedaction() async throws {
            try await withApp(configure: { configureTestApp($0) }) { app in
                let traces = try await captureTraces(payloads: .captured) {
                    try await app.testing().test(
                        .GET,
                        "/hello?lang=en",
                        headers: [
                            "Authorization": "Bearer secret-token", "Cookie": "session=secret", "Accept": "text/plain",
                            "X-API-Key": "secret-key",
                        ]
                    ) { _ in }
                }
                let payload = try #require(traces.first?.payload)
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
        }

        @Test("with no recorder in force nothing is traced, every response is the same, and the app is as configured")
        func noRecorder() async throws {
            try await withApp(configure: { configureTestApp($0) }) { app in
                let middlewareBefore = app.middleware.resolve().map { "\(type(of: $0))" }
                let respondersBefore = app.routes.all.map { "\(type(of: $0.responder))" }
                for expected in expectedRequests {
                    try await app.testing().test(.GET, expected.uri, headers: expected.headers) { response in
                        #expect(response.status == expected.status, "\(expected.uri)")
                    }
                }
                #expect(app.middleware.resolve().map { "\(type(of: $0))" } == middlewareBefore)
                #expect(app.routes.all.map { "\(type(of: $0.responder))" } == respondersBefore)
            }
        }
    }
#endif
