import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Orders a user relies on, on generated inputs: a defined handler whose `fails` and `accepts` both match a
/// command fails, as documented, in the real run and the dry run; entries naming handlers the chain does not have
/// are errors at the entry; folded stacks list each stack once, summed, in the order first met.
@Suite("Documented orders")
struct DefinitionOrderingTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func failsComesBeforeAccepts(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let acceptsSize = random.pick(["S", "M"])
        let failsSize = random.pick(["S", "M"])
        let text =
            #"{"chain":"c","handlers":[{"name":"A","accepts":{"field":"size","equals":"\#(acceptsSize)"},"fails":{"when":{"field":"size","equals":"\#(failsSize)"},"error":"refused"}}]}"#
        let chain = try ChainDefinition.load(bytes: Array(text.utf8), file: "c.json").makeChain()
        let sink = InMemoryTraceSink()
        chain.recorder = Recorder(sink: sink)
        for size in ["S", "M", "L"] {
            let command = JSONCommand(kind: "K", fields: ["size": .string(size)])
            _ = try? chain.send(command)
            let expected: Outcome =
                size == failsSize
                ? .failed(at: "A", error: "refused") : size == acceptsSize ? .accepted(by: "A") : .fellOffTheEnd
            #expect(sink.traces.last?.outcome == expected, "seed \(seed): size \(size)")
            #expect(
                try chain.whoWouldHandle(command).predictedOutcome == expected,
                "seed \(seed): dry run, size \(size)"
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func anUnknownEntryIsAnErrorAtIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let entries = (0..<Int.random(in: 1...4, using: &random)).map { _ in random.pick(["A", "B", "Ghost"]) }
        let text =
            "{\"chain\":\"c\",\"handlers\":[{\"name\":\"A\",\"next\":\"B\"},{\"name\":\"B\"}],\n\"entries\":[\(entries.map { "\"\($0)\"" }.joined(separator: ","))]}"
        let findings = ChainDefinitionLinter.lint(bytes: Array(text.utf8), file: "e.json")
        let unknown = findings.filter { $0.check == .unknownHandler }
        #expect(unknown.count == entries.filter { $0 == "Ghost" }.count, "seed \(seed): \(findings.map(\.description))")
        #expect(unknown.allSatisfy { $0.error.line == 2 && $0.severity == .error }, "seed \(seed)")
        if entries.contains("Ghost") {
            #expect(throws: FormatError.self, "seed \(seed)") {
                try ChainDefinition.load(bytes: Array(text.utf8), file: "e.json").makeChain()
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func foldedStacksAreListedOnceInTheOrderFirstMet(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var export = FoldedStacksExport()
        var order: [String] = []
        var totals: [String: UInt64] = [:]
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            let path = Array(["A", "B", "C", "D"].prefix(Int.random(in: 1...4, using: &random)))
            let hops = path.enumerated().map { position, name in
                Hop(
                    handler: name,
                    position: position,
                    decision: .passed,
                    startOffset: UInt64(position * 10),
                    inclusiveDuration: 10,
                    selfDuration: UInt64.random(in: 0...9, using: &random)
                )
            }
            export.add(
                Trace(
                    id: 0,
                    commandKind: "K",
                    entry: "A",
                    chain: "c",
                    hops: hops,
                    outcome: .fellOffTheEnd,
                    duration: 40
                )
            )
            for hop in hops {
                let stack = "c;\(hop.handler)"
                if totals[stack] == nil { order.append(stack) }
                totals[stack, default: 0] += hop.selfDuration
            }
        }
        let expected = order.map { "\($0) \(totals[$0]!)\n" }.joined()
        #expect(export.text(unit: .nanoseconds) == expected, "seed \(seed)")
    }
}
