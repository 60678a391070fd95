import ChainTrace
import ChainTraceTestSupport
import Testing

/// Chains relinked into loops of every size and place, entered anywhere: a command that would go round forever
/// is stopped with a `.loop` error naming exactly the handlers of the loop, its trace fails within one hop per
/// handler, a command taken before the loop is unaffected, and the dry run names the same loop.
@Suite("The loop guard on generated loops")
struct LoopGuardPropertyTests {
    @Test(arguments: SeededGenerator.seeds(50))
    func everyLoopIsStoppedAndNamed(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...8, using: &random)
        let names = (0..<count).map { "H\($0)" }
        let sink = InMemoryTraceSink()
        // H0 → H1 → … → Hn-1; each takes only its own name.
        let chain = try Chain<String, String>(
            "loops-\(seed)", handlers: names.map { name in Handler(name, canHandle: { $0 == name }) { $0 == name ? .accept(name) : .pass } },
            recorder: Recorder(sink: sink))
        // The last one (or any after the loop's start) links back: Hstart … Hend → Hstart.
        let start = Int.random(in: 0..<count, using: &random)
        let end = Int.random(in: start..<count, using: &random)
        try chain.link(names[end], to: names[start])
        let loop = Array(names[start...end])
        let entry = Int.random(in: 0...end, using: &random)

        let error = try #require(throws: ChainError.self, "seed \(seed)") { try chain.send("nobody", from: names[entry]) }
        #expect(error.code == .loop, "seed \(seed)")
        #expect(Set(error.handlers) == Set(loop), "seed \(seed): \(error.handlers) vs \(loop)")
        let trace = try #require(sink.traces.last, "seed \(seed)")
        #expect(trace.outcome.failingHandler.map(loop.contains) == true, "seed \(seed): \(trace.outcome)")
        #expect(trace.hops.count <= count + 1, "seed \(seed): \(trace.hops.count) hops")

        // A command some handler on the way takes is taken, loop or not.
        let taker = Int.random(in: entry...end, using: &random)
        #expect(try chain.send(names[taker], from: names[entry]) == names[taker], "seed \(seed)")
        #expect(try chain.whoWouldHandle(names[taker], from: names[entry]).handler == names[taker], "seed \(seed)")

        // The dry run of the command nobody takes stops at the loop too, naming it.
        let dryError = try #require(throws: ChainError.self, "seed \(seed)") { try chain.whoWouldHandle("nobody", from: names[entry]) }
        #expect(dryError.code == .loop && Set(dryError.handlers) == Set(loop), "seed \(seed): \(dryError)")
    }
}
