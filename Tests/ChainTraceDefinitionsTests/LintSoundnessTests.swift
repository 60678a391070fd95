import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// The lint's warnings about generated definitions hold when the chain runs: a handler it calls `never-accepts` or
/// `shadowed` accepts none of thousands of generated commands, sent from every entry. (The lint may miss such a
/// handler — it is conservative — but what it says must be true.)
@Suite("Lint warnings hold in real runs")
struct LintSoundnessTests {
    static func command(_ random: inout SeededGenerator) -> JSONCommand {
        var fields: [String: JSONValue] = [:]
        if random.chance(0.8) { fields["size"] = random.pick([.string("S"), .string("M"), .string("L"), .integer(2)]) }
        if random.chance(0.8) {
            fields["weight"] = random.pick([.integer(1), .integer(2), .double(2.5), .integer(9), .integer(12)])
        }
        if random.chance(0.6) { fields["card"] = .object(["type": random.pick([.string("visa"), .string("amex")])]) }
        if random.chance(0.4) { fields["name"] = random.pick([.string("ada"), .string("M"), .string("S1")]) }
        return JSONCommand(kind: random.pick(["Tap", "Swipe", "Coin", "Other"]), fields: .object(fields))
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func handlersTheLintCallsDeadNeverAccept(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = GeneratedDefinition.makeBytes(&random)
        let findings = ChainDefinitionLinter.lint(bytes: bytes, file: "g.chain.json")
        let dead = Set(findings.filter { $0.check == .neverAccepts || $0.check == .shadowed }.compactMap(\.handler))
        guard !dead.isEmpty else { return }
        let definition = try ChainDefinition.load(bytes: bytes, file: "g.chain.json")
        let chain = try definition.makeChain()
        let sink = InMemoryTraceSink()
        chain.recorder = Recorder(sink: sink)
        for _ in 0..<400 {
            let command = Self.command(&random)
            for entry in definition.entries { _ = try? chain.send(command, from: entry) }
        }
        let accepted = Set(sink.traces.compactMap(\.outcome.acceptingHandler))
        #expect(
            accepted.isDisjoint(with: dead),
            "seed \(seed): the lint called \(dead.intersection(accepted).sorted()) dead, yet they accepted"
        )
    }
}
