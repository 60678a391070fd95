import ChainTrace
import ChainTraceTestSupport
import Testing

/// A chain H0 → H1 → … → H(count − 1), recorded into `sink`, in which each handler takes only its own name (and
/// says so in `canHandle`, for the dry run); and the names.
func takingOwnNames(_ chain: String, count: Int, into sink: InMemoryTraceSink) throws -> (
    Chain<String, String>, [String]
) {
    let names = (0..<count).map { "H\($0)" }
    let handlers = names.map { name in
        Handler<String, String>(name, canHandle: { $0 == name }) { $0 == name ? .accept(name) : .pass }
    }
    return (try Chain(chain, handlers: handlers, recorder: Recorder(sink: sink)), names)
}

/// Chains relinked into loops of every size and place, entered anywhere: a command that would go round forever
/// is stopped with a `.loop` error naming exactly the handlers of the loop, its trace fails within one hop per
/// handler, a command taken before the loop is unaffected, and the dry run names the same loop.
@Suite("The loop guard on generated loops")
struct LoopGuardPropertyTests {
    /// "1 hop", "3 hops", as the errors count.
    static func hops(_ count: Int) -> String { count == 1 ? "1 hop" : "\(count) hops" }

    @Test(arguments: SeededGenerator.seeds(50))
    func everyLoopIsStoppedAndNamed(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...8, using: &random)
        let sink = InMemoryTraceSink()
        let (chain, names) = try takingOwnNames("loops-\(seed)", count: count, into: sink)
        // The last one (or any after the loop's start) links back: Hstart … Hend → Hstart.
        let start = Int.random(in: 0..<count, using: &random)
        let end = Int.random(in: start..<count, using: &random)
        try chain.link(names[end], to: names[start])
        let loop = Array(names[start...end])
        let entry = Int.random(in: 0...end, using: &random)

        let error = try #require(throws: ChainError.self, "seed \(seed)") {
            try chain.send("nobody", from: names[entry])
        }
        #expect(error.code == .loop, "seed \(seed)")
        #expect(Set(error.handlers) == Set(loop), "seed \(seed): \(error.handlers) vs \(loop)")
        let trace = try #require(sink.traces.last, "seed \(seed)")
        #expect(trace.outcome.failingHandler.map(loop.contains) == true, "seed \(seed): \(trace.outcome)")
        #expect(trace.hops.count <= count + 1, "seed \(seed): \(trace.hops.count) hops")
        // The count the message gives is the trace's, the stopped hop aside.
        let before = trace.hops.count - 1
        #expect(error.message.contains("stopped after \(Self.hops(before)). "), "seed \(seed): \(error.message)")

        // A command some handler on the way takes is taken, loop or not.
        let taker = Int.random(in: entry...end, using: &random)
        #expect(try chain.send(names[taker], from: names[entry]) == names[taker], "seed \(seed)")
        #expect(try chain.whoWouldHandle(names[taker], from: names[entry]).handler == names[taker], "seed \(seed)")

        // The dry run of the command nobody takes stops at the loop too, naming it.
        let dryError = try #require(throws: ChainError.self, "seed \(seed)") {
            try chain.whoWouldHandle("nobody", from: names[entry])
        }
        #expect(dryError.code == .loop && Set(dryError.handlers) == Set(loop), "seed \(seed): \(dryError)")
    }

    /// A loop through a registry: the hops the message counts are the chain's own, a registry and the members it
    /// asked counting as one, and the message says so — a trace of the same command shows every member's hop.
    @Test(arguments: SeededGenerator.seeds(30))
    func aLoopThroughARegistrySaysHowItCounts(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...6, using: &random)
        let sink = InMemoryTraceSink()
        let (chain, names) = try takingOwnNames("registry-loops-\(seed)", count: count, into: sink)
        let registry = try chain.addRegistry("Late", at: random.chance(0.5) ? .first : .before(random.pick(names)))
        for member in 0..<Int.random(in: 0...3, using: &random) {
            try registry.register(Handler<String, String>("M\(member)") { _ in .pass }, weight: member)
        }
        try chain.link(names[count - 1], to: random.pick(names + ["Late"]))

        let error = try #require(throws: ChainError.self, "seed \(seed)") { try chain.send("nobody", from: "Late") }
        #expect(error.code == .loop, "seed \(seed)")
        let trace = try #require(sink.traces.last, "seed \(seed)")
        let own = trace.hops.filter { $0.registry == nil }.count - 1
        #expect(
            error.message.contains(
                "stopped after \(Self.hops(own)) along its own path (a registry and its members count as one)"
            ),
            "seed \(seed): \(error.message) for \(trace.path)"
        )
    }
}

/// Chains with a hop limit (`maximumHops`) set below, at or above the length of a path that does not loop: a
/// command nobody takes is stopped at the hop past the limit with a `.hopLimit` error — not a `.loop`: no handler
/// repeated — naming the handler it stopped at and the length the limit must reach; the dry run says the same; at
/// or above the path's length nothing is stopped. A loop under a generous limit is still a loop.
@Suite("The hop limit on generated paths without loops")
struct HopLimitPropertyTests {
    @Test(arguments: SeededGenerator.seeds(50))
    func aLimitBelowAPathIsNoLoop(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...8, using: &random)
        let sink = InMemoryTraceSink()
        let (chain, names) = try takingOwnNames("limits-\(seed)", count: count, into: sink)
        let entry = Int.random(in: 0..<count, using: &random)
        let length = count - entry
        let limit = Int.random(in: -1...(count + 1), using: &random)
        chain.maximumHops = limit

        guard limit < length else {
            #expect(try chain.send("nobody", from: names[entry]) == nil, "seed \(seed)")
            #expect(
                try chain.whoWouldHandle("nobody", from: names[entry]).path == Array(names[entry...]),
                "seed \(seed)"
            )
            return
        }
        let stoppedAt = names[entry + max(0, limit)]
        let error = try #require(throws: ChainError.self, "seed \(seed)") {
            try chain.send("nobody", from: names[entry])
        }
        #expect(error.code == .hopLimit && error.handlers == [stoppedAt], "seed \(seed): \(error)")
        #expect(error.message.contains("at least \(length)"), "seed \(seed): \(error.message)")
        #expect(!error.message.contains("loops"), "seed \(seed): \(error.message)")
        let trace = try #require(sink.traces.last, "seed \(seed)")
        #expect(trace.outcome.failingHandler == stoppedAt, "seed \(seed): \(trace.outcome)")
        let dryError = try #require(throws: ChainError.self, "seed \(seed)") {
            try chain.whoWouldHandle("nobody", from: names[entry])
        }
        #expect(dryError == error, "seed \(seed): \(dryError) vs \(error)")

        // The same chain relinked into a loop, under a limit above its length, is a loop again.
        chain.maximumHops = count + 1
        try chain.link(names[count - 1], to: names[entry])
        let loopError = try #require(throws: ChainError.self, "seed \(seed)") {
            try chain.send("nobody", from: names[entry])
        }
        #expect(
            loopError.code == .loop && Set(loopError.handlers) == Set(names[entry...]),
            "seed \(seed): \(loopError)"
        )
    }
}
