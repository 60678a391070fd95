import ChainTrace
import ChainTraceTesting
import Testing

/// Every public entry point a user wraps code in, around the shapes in this target: the traces come out right,
/// and (the point of this target) the code compiles in default Swift 6 mode.
@Suite("Users' own chain shapes", .tags(.concurrent))
struct UserShapeTests {
    @Test func asyncSignUpChainOfPlainClasses() async {
        let service = UsernameService()
        let chain = makeSignUpChain(service: service)
        var errors: [SignUpError?] = []
        let traces = await captureTraces {
            errors.append(await chain.handle(SignUpForm(username: "ada", email: "ada@example.com")))
            errors.append(await chain.handle(SignUpForm(username: "taken", email: "t@example.com")))
            errors.append(await chain.handle(SignUpForm(username: "bob", email: "bob")))
            errors.append(await chain.handle(SignUpForm(username: "eve", email: "e@example.com", photo: [0xFF])))
        }
        #expect(errors == [nil, .usernameTaken, .invalidEmail, .uploadFailed])
        #expect(service.checks == 4)
        try? #require(traces.count == 4)
        expectPath(traces[0], ["CheckUsername", "CheckEmail", "UploadPhoto", "SaveUser"])
        expectHandled(traces[0], by: "SaveUser")
        expectFailed(traces[1], at: "CheckUsername")
        expectFailed(traces[2], at: "CheckEmail")
        expectFailed(traces[3], at: "UploadPhoto")
    }

    @Test func asyncSignUpsAtOnceEachInTheirOwnTrace() async {
        let traces = await captureTraces {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let chain = makeSignUpChain()
                        _ = await chain.handle(SignUpForm(username: "user\(index)", email: "u\(index)@example.com"))
                    }
                }
            }
        }
        #expect(traces.count == 20)
        for trace in traces { expectPath(trace, ["CheckUsername", "CheckEmail", "UploadPhoto", "SaveUser"]) }
    }

    @Test @MainActor func mainActorResponders() async {
        let chain = MainActorResponder("Window", next: MainActorResponder("App"))
        var handled: [Bool] = []
        let traces = await captureTraces {
            handled.append(await chain.handle("App.quit"))
            handled.append(await chain.handle("Nobody.hears"))
        }
        #expect(handled == [true, false])
        #expect(chain.next?.handled == ["App.quit"])
        try? #require(traces.count == 2)
        expectHandled(traces[0], by: "App")
        expectPath(traces[1], ["Window", "App"])
    }

    @Test func syncCoinChainOfPlainClasses() throws {
        let (first, validators) = makeCoinChain()
        var results: [String?] = []
        let traces = captureTraces {
            results.append(first.handle(Coin(diameter: 17.91, weight: 2.268)))
            results.append(first.handle(Coin(diameter: 30, weight: 9)))
        }
        #expect(results == ["Dime", nil])
        #expect(first.count == 2 && validators[1].validated == 1)
        try #require(traces.count == 2)
        expectPath(traces[0], ["CoinCounter", "Penny", "Dime"])
        expectDecision(traces[0], "CoinCounter", .continued)
        expectHandled(traces[0], by: "Dime")
        expectUnhandled(traces[1])
    }

    @Test func withRecorderSyncAndAsync() async {
        let sink = InMemoryTraceSink()
        let (first, _) = makeCoinChain()
        let chain = makeSignUpChain()
        ChainTracing.withRecorder(Recorder(sink: sink)) {
            _ = first.handle(Coin(diameter: 19.05, weight: 2.5))
        }
        await ChainTracing.withRecorder(Recorder(sink: sink)) {
            _ = await chain.handle(SignUpForm(username: "ada", email: "ada@example.com"))
            _ = first.handle(Coin(diameter: 24.26, weight: 5.67))
        }
        #expect(sink.traces.map(\.chain) == ["coins", "sign-up", "coins"])
    }

    @Test func registriesSyncAndAsync() async throws {
        let registry = ScreenRegistry()
        registry.register(Screen("Detail", actions: ["share"]), weight: 10)
        registry.register(Screen("List", actions: ["delete"]), weight: 5)
        registry.fallback = Screen("App", actions: ["quit"])
        var taken: [Bool] = []
        let traces = await captureTraces {
            taken.append(registry.handle("delete"))
            taken.append(registry.handle("quit"))
            taken.append(await registry.handleAsync("share"))
        }
        #expect(taken == [true, true, true])
        try #require(traces.count == 3)
        expectPath(traces[0], ["Screens", "Detail", "List"])
        #expect(traces[0].hops.map(\.registry) == [nil, "Screens", "Screens"])
        expectDecision(traces[1], "Screens", .passed)
        expectHandled(traces[1], by: "App")
        expectHandled(traces[2], by: "Detail")
        #expect(traces[2].hops[1].registry == "Screens")
    }

    @Test func aMemberMarksItself() throws {
        let registry = SelfMarkingScreen(registry: "Outer")
        let traces = captureTraces {
            _ = traceHop("Outer", command: "open", chain: "editor") { registry.handle("open") }
        }
        try #require(traces.count == 1)
        #expect(traces[0].hops.map(\.registry) == [nil, "Outer"])
    }
}

extension Tag {
    /// Suites that record from several tasks at once: `Scripts/test-sanitized.sh` runs them again under
    /// ThreadSanitizer. (This target depends on no test helper, as a user's would not.)
    @Tag static var concurrent: Self
}
