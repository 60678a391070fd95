import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// Declaring a definition's handlers in a profile, against a plain walk of the definition: every handler once, in
/// the definition's order, a registry before its members and those highest weight first (ties in file order), each
/// with its budget;
/// declaring only budgets adds exactly the handlers that have one.
@Suite("Profiles declare a definition's handlers")
struct ProfileDeclarationTests {
    @Test(arguments: SeededGenerator.seeds(30))
    func declarationsFollowTheDefinition(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var serial = 0
        func handler() -> HandlerDefinition {
            serial += 1
            return HandlerDefinition(
                name: "H\(serial)",
                budget: random.chance(0.4) ? Int64.random(in: 1...1_000_000, using: &random) : nil,
                weight: Int.random(in: 0...3, using: &random)
            )
        }
        let handlers = (0..<Int.random(in: 1...8, using: &random)).map { _ -> HandlerDefinition in
            guard random.chance(0.3) else { return handler() }
            serial += 1
            let name = "R\(serial)"
            let budget = random.chance(0.4) ? Int64.random(in: 1...1_000_000, using: &random) : nil
            return HandlerDefinition(
                name: name,
                budget: budget,
                members: (0..<Int.random(in: 1...4, using: &random)).map { _ in handler() }
            )
        }
        let definition = ChainDefinition(name: "c", handlers: handlers)

        var expected: [(name: String, budget: Int64?)] = []
        for node in handlers {
            expected.append((node.name, node.budget))
            // Highest weight first; a stable sort keeps file order among equal weights.
            let ordered = (node.members ?? []).enumerated().sorted {
                ($0.element.weight, -$0.offset) > ($1.element.weight, -$1.offset)
            }
            expected += ordered.map { ($0.element.name, $0.element.budget) }
        }

        var all = ChainProfile()
        all.declareHandlers(of: definition)
        #expect(all.handlers.map(\.handler) == expected.map(\.name), "seed \(seed)")
        #expect(all.handlers.map(\.budgetNanoseconds) == expected.map(\.budget), "seed \(seed)")
        #expect(all.handlers.allSatisfy { $0.seen == 0 }, "seed \(seed)")

        var budgets = ChainProfile()
        budgets.declareBudgets(of: definition)
        let withBudget = Dictionary(
            uniqueKeysWithValues: expected.compactMap { row in row.budget.map { (row.name, $0) } }
        )
        #expect(
            Dictionary(uniqueKeysWithValues: budgets.handlers.map { ($0.handler, $0.budgetNanoseconds ?? -1) })
                == withBudget,
            "seed \(seed)"
        )
    }
}
