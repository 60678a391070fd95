import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

@Suite("Trees, run-time edits, versions and the loop guard", .tags(.concurrent))
struct ChainEditingTests {
    /// cell → list → navigation → window → app, plus a second leaf `button` under `window`.
    func responderTree(_ sink: InMemoryTraceSink) throws -> Chain<String, String> {
        let chain = try Chain<String, String>("responders", recorder: Recorder(sink: sink))
        func responder(_ name: String, handles actions: Set<String>) -> Handler<String, String> {
            Handler(name, canHandle: { actions.contains($0) }) { action in
                actions.contains(action) ? .accept("\(name) did \(action)") : .pass
            }
        }
        try chain.add(responder("app", handles: ["quit", "about"]), next: nil)
        try chain.add(responder("window", handles: ["close"]), next: "app")
        try chain.add(responder("navigation", handles: ["back"]), next: "window")
        try chain.add(responder("list", handles: ["delete"]), next: "navigation")
        try chain.add(responder("cell", handles: ["share"]), next: "list")
        try chain.add(responder("button", handles: []), next: "window")
        return chain
    }

    @Test func commandsWalkFromAnyEntryTowardTheRoot() throws {
        let sink = InMemoryTraceSink()
        let chain = try responderTree(sink)
        #expect(try chain.send("quit", from: "cell") == "app did quit")
        #expect(try chain.send("close", from: "button") == "window did close")
        expectPath(sink.traces[0], ["cell", "list", "navigation", "window", "app"])
        #expect(sink.traces[0].entry == "cell")
        expectPath(sink.traces[1], ["button", "window"])
        #expect(sink.traces[1].entry == "button")
    }

    @Test func unknownEntryIsAnErrorNamingTheKnownHandlers() throws {
        let chain = try responderTree(InMemoryTraceSink())
        let error = try #require(throws: ChainError.self) { try chain.send("quit", from: "sidebar") }
        #expect(error.code == .unknownHandler)
        #expect(error.message.contains("'sidebar'"))
        #expect(error.message.contains("cell"))
    }

    @Test func insertPositionsPlaceHandlersWhereAsked() throws {
        let chain = try Chain<Int, Int>("line", handlers: [Handler("B") { _ in .pass }])
        try chain.insert(Handler("A") { _ in .pass }, at: .first)
        try chain.insert(Handler("D") { _ in .pass }, at: .last)
        try chain.insert(Handler("C") { _ in .pass }, at: .before("D"))
        try chain.insert(Handler("B2") { _ in .pass }, at: .after("B"))
        #expect(chain.path() == ["A", "B", "B2", "C", "D"])
        try chain.remove("B2")
        try chain.remove("A")
        #expect(chain.path() == ["B", "C", "D"])
        try chain.replace("C", with: Handler("C2") { _ in .pass })
        #expect(chain.path() == ["B", "C2", "D"])
    }

    @Test func everyEditBumpsTheVersionThatTracesRecord() throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain(recordingInto: sink)
        let before = chain.version
        try chain.send(.penny)
        try chain.remove("Penny")
        try chain.send(.penny)
        #expect(chain.version > before)
        #expect(sink.traces.map(\.chainVersion) == [before, chain.version])
        expectUnhandled(sink.traces[1])
    }

    @Test func duplicateAndUnknownNamesAreRefused() throws {
        let chain = try coinChain()
        let version = chain.version
        #expect(throws: ChainError.self) { try chain.append(validator("Penny", .penny)) }
        #expect(throws: ChainError.self) { try chain.insert(validator("X", .penny), at: .after("Ghost")) }
        #expect(throws: ChainError.self) { try chain.remove("Ghost") }
        #expect(throws: ChainError.self) {
            try Chain<Coin, String>("dup", handlers: [validator("A", .penny), validator("A", .dime)])
        }
        #expect(chain.version == version)
    }

    @Test func chainRelinkedIntoALoopIsStoppedWithTheLoopNamed() throws {
        let sink = InMemoryTraceSink()
        let chain = try responderTree(sink)
        try chain.link("window", to: "list")  // list → navigation → window → list …
        let error = try #require(throws: ChainError.self) { try chain.send("nobody", from: "cell") }
        #expect(error.code == .loop)
        #expect(Set(error.handlers) == ["list", "navigation", "window"])
        #expect(error.message.contains("→"))
        let trace = try #require(sink.traces.first)
        #expect(trace.outcome.failingHandler != nil)
        #expect(trace.hops.count <= chain.handlerNames.count + 1)
    }

    @Test func debugDescriptionTabulatesNodesKindsAndLinks() throws {
        let chain = try Chain<String, String>("window", handlers: [Handler("Detail") { _ in .pass }])
        try chain.insert(.observer("Analytics") { _ in }, at: .first)
        try chain.addRegistry("Late").register(Handler("Search") { _ in .pass }, weight: 3)
        #expect(
            chain.debugDescription == """
                Chain 'window' version 4
                  Detail: handler → Late
                  Analytics (head): observer → Detail
                  Late: registry [Search@3] → end
                """
        )
    }

    @Test func aHandlerThatEditsAndResendsIntoItsOwnChainIsSafe() throws {
        let sink = InMemoryTraceSink()
        let chain = try Chain<Int, String>("reentrant", recorder: Recorder(sink: sink))
        weak let weakChain = chain
        try chain.append(
            Handler("Forwarder") { depth in
                guard depth < 3, let chain = weakChain else { return .pass }
                // Publishes a new snapshot while this walk is still using the old one, then sends again.
                try chain.insert(Handler("Added\(depth)") { _ in .pass }, at: .last)
                return try chain.send(depth + 1).map { .accept("\($0) via \(depth)") } ?? .pass
            }
        )
        try chain.append(Handler("Last") { .accept("last \($0)") })
        #expect(try chain.send(0) == "last 3 via 2 via 1 via 0")
        #expect(sink.traces.count == 4)
        #expect(Set(sink.traces.map(\.chainVersion)).count == 4)
    }

    @Test func editsWhileSendingFromOtherThreadsNeverTearACommand() async throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain(recordingInto: sink)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<200 {
                    try? chain.insert(Handler("Extra\(round)") { _ in .pass }, at: .first)
                    try? chain.remove("Extra\(round)")
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<2_000 { _ = try? chain.send(.quarter) }
                }
            }
        }
        #expect(sink.traces.count == 4_000)
        for trace in sink.traces {
            expectHandled(trace, by: "Quarter")
            #expect(trace.path.suffix(4) == ["Penny", "Nickel", "Dime", "Quarter"])
        }
    }
}
