import ChainTrace
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// Where commands enter a chain made from a generated definition: the entries it declares, else every handler no
/// other forwards to, in file order, else the first; the first is the default. A command sent without an entry
/// starts at the default; one naming an entry starts there.
@Suite("Definition entries")
struct DefinitionEntriesTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func entriesAreDeclaredOrTheRootsAndTheFirstIsTheDefault(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...8, using: &random)
        // Each handler forwards to a later one, or to none: roots are those nobody forwards to.
        let next: [Int?] = (0..<count).map { index in
            index + 1 < count && random.chance(0.6) ? Int.random(in: (index + 1)..<count, using: &random) : nil
        }
        let handlers = (0..<count).map { index in
            #"{"name":"H\#(index)","accepts":{"kind":["K\#(index)"]}\#(next[index].map { #","next":"H\#($0)""# } ?? "")}"#
        }
        let declared: [String]? =
            random.chance(0.4)
            ? Array(
                (0..<count).map { "H\($0)" }.shuffled(using: &random).prefix(Int.random(in: 1...count, using: &random))
            ) : nil
        let entriesMember = declared.map { #","entries":[\#($0.map { "\"\($0)\"" }.joined(separator: ","))]"# } ?? ""
        let definition = try ChainDefinition.load(
            bytes: Array(#"{"chain":"e","handlers":[\#(handlers.joined(separator: ","))]\#(entriesMember)}"#.utf8),
            file: "e.json"
        )
        let targets = Set(next.compactMap { $0 })
        let roots = (0..<count).filter { !targets.contains($0) }.map { "H\($0)" }
        let expected = declared ?? (roots.isEmpty ? ["H0"] : roots)
        #expect(definition.entries == expected, "seed \(seed): \(definition.entries) vs \(expected)")

        let chain = try definition.makeChain()
        let sink = InMemoryTraceSink()
        chain.recorder = Recorder(sink: sink)
        _ = try chain.send(JSONCommand(kind: "nothing"))
        #expect(sink.traces.last?.entry == expected[0], "seed \(seed): default entry")
        let other = random.pick(expected)
        _ = try chain.send(JSONCommand(kind: "nothing"), from: other)
        #expect(sink.traces.last?.entry == other && sink.traces.last?.path.first == other, "seed \(seed)")
    }

    /// Declared entries that cannot be right — none at all, a name twice, a name of no handler — are each an
    /// error at the entry's position, found by the linter and refused by `load`, and nothing else is said
    /// about reachability when there is no entry; lists without them load.
    @Test(arguments: SeededGenerator.seeds(60))
    func anEmptyListARepeatedEntryAndAnUnknownOneAreErrors(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...5, using: &random)
        let names = (0..<count).map { "H\($0)" }
        let handlers = names.map { #"{"name":"\#($0)","accepts":{"kind":["\#($0)"]}}"# }
        let entries = (0..<Int.random(in: 0...5, using: &random)).map { _ in
            random.chance(0.15) ? "Nobody" : random.pick(names)
        }
        let text =
            #"{"chain":"e","handlers":[\#(handlers.joined(separator: ","))],"entries":[\#(entries.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        let findings = ChainDefinitionLinter.lint(bytes: Array(text.utf8), file: "e.json")
        var expected: [String] = []
        if entries.isEmpty { expected.append("expected at least one entry") }
        var seen: Set<String> = []
        for entry in entries {
            if entry == "Nobody" {
                expected.append("expected an entry naming a handler of the chain, found \"Nobody\"")
            } else if !seen.insert(entry).inserted {
                expected.append(
                    "expected each entry once, found \"\(entry)\", already entry \((entries.firstIndex(of: entry) ?? 0) + 1)"
                )
            }
        }
        let errors = findings.filter { $0.severity == .error }.map {
            "expected \($0.error.expected), found \($0.error.found)"
        }
        #expect(errors.count == expected.count, "seed \(seed): \(entries): \(errors)")
        for message in expected {
            #expect(
                errors.contains { $0.hasPrefix(message) },
                "seed \(seed): \(entries): \(message) missing from \(errors)"
            )
        }
        if entries.isEmpty {
            #expect(!findings.contains { $0.check == .unreachable }, "seed \(seed)")
        }
        let loaded = Result { try ChainDefinition.load(bytes: Array(text.utf8), file: "e.json") }
        #expect((try? loaded.get()) == nil ? !expected.isEmpty : expected.isEmpty, "seed \(seed): \(entries)")
    }
}
