import ChainTrace
import ChainTraceTesting
import Testing

@Suite("Registries of late responders")
struct RegistryTests {
    func window(_ sink: InMemoryTraceSink) throws -> (Chain<String, String>, Registry<Handler<String, String>>) {
        let chain = try Chain<String, String>(
            "window",
            handlers: [
                Handler("Detail") { $0 == "edit" ? .accept("Detail edits") : .pass },
                Handler("App") { $0 == "quit" ? .accept("App quits") : .pass },
            ],
            recorder: Recorder(sink: sink)
        )
        let registry = try chain.addRegistry("LateResponders", at: .before("App"))
        return (chain, registry)
    }

    func responder(_ name: String, _ action: String) -> Handler<String, String> {
        Handler(name, canHandle: { $0 == action }) { $0 == action ? .accept(name) : .pass }
    }

    @Test func membersRunInWeightOrderAndTheirHopsNameTheRegistry() throws {
        let sink = InMemoryTraceSink()
        let (chain, registry) = try window(sink)
        try registry.register(responder("ListShortcuts", "delete"), weight: 1)
        try registry.register(responder("SearchShortcuts", "delete"), weight: 5)
        #expect(try registry.members().map(\.name) == ["SearchShortcuts", "ListShortcuts"])
        #expect(try chain.send("delete") == "SearchShortcuts")
        let trace = sink.traces[0]
        expectPath(trace, ["Detail", "LateResponders", "SearchShortcuts"])
        #expect(trace.hop("SearchShortcuts")?.registry == "LateResponders")
        #expect(trace.hop("LateResponders")?.registry == nil)
        expectHandled(trace, by: "SearchShortcuts")
        let registryHop = try #require(trace.hop("LateResponders"))
        #expect(registryHop.inclusiveDuration >= trace.hop("SearchShortcuts")!.inclusiveDuration)
    }

    @Test func commandNoMemberTakesGoesOnPastTheRegistry() throws {
        let sink = InMemoryTraceSink()
        let (chain, registry) = try window(sink)
        try registry.register(responder("ListShortcuts", "delete"))
        #expect(try chain.send("quit") == "App quits")
        expectPath(sink.traces[0], ["Detail", "LateResponders", "ListShortcuts", "App"])
    }

    @Test func deregisteringChangesPathsAndVersions() throws {
        let sink = InMemoryTraceSink()
        let (chain, registry) = try window(sink)
        try registry.register(responder("ListShortcuts", "delete"))
        try chain.send("delete")
        #expect(try registry.deregister("ListShortcuts"))
        #expect(try !registry.deregister("ListShortcuts"))
        try chain.send("delete")
        expectHandled(sink.traces[0], by: "ListShortcuts")
        expectUnhandled(sink.traces[1])
        #expect(sink.traces[1].chainVersion > sink.traces[0].chainVersion)
    }

    @Test func memberNamesMustBeUniqueInTheWholeChain() throws {
        let (_, registry) = try window(InMemoryTraceSink())
        #expect(throws: ChainError.self) { try registry.register(responder("App", "x")) }
    }

    @Test func aHandlerIsNotARegistry() throws {
        let (chain, _) = try window(InMemoryTraceSink())
        let error = try #require(throws: ChainError.self) { try chain.registry("App") }
        #expect(error.code == .wrongKind)
    }

    /// Wherever a handler of the chain's own paths is needed — an entry, a place to insert, add or link at, a
    /// handler to remove, replace or link — a registry member's name is refused as one, naming its registry;
    /// deregistered, the name is simply unknown.
    @Test func aRegistryMemberIsNamedAsOneWhereAChainHandlerIsNeeded() throws {
        let (chain, registry) = try window(InMemoryTraceSink())
        try registry.register(responder("Search", "find"), weight: 1)
        let uses: [(String, () throws -> Void)] = [
            ("send from", { _ = try chain.send("find", from: "Search") }),
            ("dry run from", { _ = try chain.whoWouldHandle("find", from: "Search") }),
            ("insert before", { try chain.insert(self.responder("New", "x"), at: .before("Search")) }),
            ("insert after", { try chain.insert(self.responder("New", "x"), at: .after("Search")) }),
            ("add next", { try chain.add(self.responder("New", "x"), next: "Search") }),
            ("remove", { try chain.remove("Search") }),
            ("replace", { try chain.replace("Search", with: self.responder("New", "x")) }),
            ("link", { try chain.link("Search", to: "App") }),
            ("link to", { try chain.link("Detail", to: "Search") }),
            ("registry", { _ = try chain.registry("Search") }),
        ]
        for (use, attempt) in uses {
            let error = try #require(throws: ChainError.self, "\(use)") { try attempt() }
            #expect(error.code == .wrongKind, "\(use)")
            #expect(error.message.contains("member of registry 'LateResponders'"), "\(use): \(error.message)")
        }
        #expect(chain.path() == ["Detail", "LateResponders", "App"])
        #expect(try registry.deregister("Search"))
        for (use, attempt) in uses {
            let error = try #require(throws: ChainError.self, "\(use)") { try attempt() }
            #expect(error.code == .unknownHandler, "\(use)")
        }
    }
}
