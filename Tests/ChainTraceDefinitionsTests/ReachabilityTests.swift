import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// Reachability and roles in generated definitions: the lint calls a handler `unreachable` exactly when no
/// declared entry's path leads to it (worked out here by walking the links); and however its rules read, an
/// observer made from a definition never accepts a command — it continues, or fails when its `fails` rule says so.
@Suite("Reachability and observers")
struct ReachabilityTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func unreachableIsExactlyWhatNoEntryLeadsTo(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 2...8, using: &random)
        let next: [Int?] = (0..<count).map { index in
            random.chance(0.7) && index + 1 < count ? Int.random(in: (index + 1)..<count, using: &random) : nil
        }
        let entries = Array(
            Set((0..<Int.random(in: 1...2, using: &random)).map { _ in Int.random(in: 0..<count, using: &random) })
        ).sorted()
        let handlers = (0..<count).map { index in
            #"{"name":"H\#(index)","accepts":{"kind":["K\#(index)"]}\#(next[index].map { #","next":"H\#($0)""# } ?? "")}"#
        }
        let text =
            #"{"chain":"c","handlers":[\#(handlers.joined(separator: ","))],"entries":[\#(entries.map { "\"H\($0)\"" }.joined(separator: ","))]}"#
        var reached = Set<Int>()
        for entry in entries {
            var node: Int? = entry
            while let current = node, reached.insert(current).inserted { node = next[current] }
        }
        let findings = ChainDefinitionLinter.lint(bytes: Array(text.utf8), file: "r.json")
        let unreachable = Set(findings.filter { $0.check == .unreachable }.compactMap(\.handler))
        #expect(
            unreachable == Set((0..<count).filter { !reached.contains($0) }.map { "H\($0)" }),
            "seed \(seed): \(unreachable.sorted()) with entries \(entries), next \(next)"
        )
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func observersNeverAccept(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (value, _) = GeneratedDefinition.make(&random)
        // Every handler that is not a registry becomes an observer, keeping its rules.
        guard case .array(let handlers)? = value["handlers"] else { return }
        var observed = value
        for (index, handler) in handlers.enumerated() where handler["registry"] == nil {
            observed = observed.changing(at: ["handlers", "\(index)", "role"], to: .string("observer"))
                .changing(at: ["handlers", "\(index)", "accepts"], to: nil)
        }
        var writer = JSONWriter()
        writer.write(observed)
        let definition = try ChainDefinition.load(bytes: writer.bytes, file: "o.json")
        let chain = try definition.makeChain()
        let sink = InMemoryTraceSink()
        chain.recorder = Recorder(sink: sink)
        let observers = Set(definition.handlers.filter { $0.role == .observer }.map(\.name))
        for _ in 0..<50 {
            _ = try? chain.send(LintSoundnessTests.command(&random))
        }
        for hop in sink.traces.flatMap(\.hops) where observers.contains(hop.handler) {
            #expect(
                hop.decision == .continued || hop.decision == .failed,
                "seed \(seed): observer \(hop.handler) \(hop.decision)"
            )
        }
    }
}
