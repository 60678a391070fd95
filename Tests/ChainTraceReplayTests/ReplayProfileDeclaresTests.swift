import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// A replay's table lists every handler of the definition — reached or not, in the definition's order, a
/// registry before its members and its members in the order commands reach them — with the budget the definition gives it, and counts each handler's hops exactly as the
/// replayed traces show them.
@Suite("Replay profiles list the whole definition")
struct ReplayProfileDeclaresTests {
    @Test(arguments: SeededGenerator.seeds(30))
    func everyHandlerIsListedWithItsBudgetAndItsCounts(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = GeneratedDefinition.makeBytes(&random)
        let definition = try ChainDefinition.load(bytes: bytes, file: "g.chain.json")
        var expectedNames: [String] = []
        var budgets: [String: Int64] = [:]
        for handler in definition.handlers {
            expectedNames.append(handler.name)
            budgets[handler.name] = handler.budget
            // Highest weight first; equal weights in file order.
            let ordered = (handler.members ?? []).enumerated().sorted {
                ($0.element.weight, -$0.offset) > ($1.element.weight, -$1.offset)
            }
            for (_, member) in ordered {
                expectedNames.append(member.name)
                budgets[member.name] = member.budget
            }
        }
        let lines = (0..<Int.random(in: 0...10, using: &random)).map { index in
            #"{"kind":"\#(random.pick(["Tap", "Swipe", "Coin"]))","id":"c\#(index)","size":"\#(random.pick(["S", "M"]))","weight":\#(Int.random(in: 1...9, using: &random))}"#
        }
        var options = ReplaySession.Options()
        options.keptPaths = lines.count
        let session = try ReplaySession(definition: definition, options: options)
        let report = try session.run(
            CommandStreamReader(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), schema: session.schema)
        )
        let listed = report.profile.handlers.map(\.handler)
        // Every handler of the definition, in its order, and nothing else: a registry stands before its members,
        // not where a command first left it.
        #expect(listed == expectedNames, "seed \(seed): \(listed) vs \(expectedNames)")
        for statistics in report.profile.handlers where expectedNames.contains(statistics.handler) {
            #expect(
                statistics.budgetNanoseconds == budgets[statistics.handler] ?? nil,
                "seed \(seed): \(statistics.handler)"
            )
            let hops = report.paths.flatMap(\.trace.hops).filter { $0.handler == statistics.handler }
            #expect(statistics.seen == hops.count, "seed \(seed): \(statistics.handler)")
        }
    }
}
