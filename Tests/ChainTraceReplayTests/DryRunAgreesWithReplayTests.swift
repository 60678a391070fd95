import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// `which` (the dry run) and `replay` (the real run) decide with one procedure: over generated definitions —
/// lines, trees, registries with tied weights, observers, `fails` rules, types modelled from rules — and generated
/// commands, the dry run names the same path and outcome as the replayed trace, every time.
@Suite("The dry run agrees with the real run")
struct DryRunAgreesWithReplayTests {
    static func rule(depth: Int, _ random: inout SeededGenerator) -> Rule {
        let leaves: [Rule] = [
            .always(true), .always(false), .kind(["A"]), .kind(["A", "B"]),
            .range(FieldPath("w"), minimum: 2, maximum: 6), .range(FieldPath("w"), minimum: nil, maximum: 4),
            .equals(FieldPath("c"), "x"), .oneOf(FieldPath("c"), ["x", 3]), .present(FieldPath("p"), true),
            .present(FieldPath("p"), false), .equals(FieldPath("n.k"), 1),
            // Into arrays by index (and into objects whose members are named like indexes).
            .equals(FieldPath("l.1"), "b"), .range(FieldPath("l.0.v"), minimum: 1, maximum: 3),
            .present(FieldPath("l.2"), true),
        ]
        if depth == 0 || random.chance(0.4) { return random.pick(leaves) }
        let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in rule(depth: depth - 1, &random) }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return .all(parts)
        case 1: return .any(parts)
        default: return .not(parts[0])
        }
    }

    static func handler(_ name: String, _ random: inout SeededGenerator) -> HandlerDefinition {
        let observer = random.chance(0.15)
        return HandlerDefinition(
            name: name,
            type: random.chance(0.1) ? "AppType" : nil,
            role: observer ? .observer : .responder,
            accepts: observer || random.chance(0.1) ? nil : rule(depth: 2, &random),
            failure: random.chance(0.3) ? FailureRule(when: rule(depth: 1, &random), error: "\(name) failed") : nil
        )
    }

    /// A definition of 1–7 nodes: each node forwards to a later one (a line or a tree), some are registries.
    static func definition(_ random: inout SeededGenerator) -> ChainDefinition {
        let count = Int.random(in: 1...7, using: &random)
        var handlers: [HandlerDefinition] = []
        var memberNumber = 0
        for index in 0..<count {
            var node: HandlerDefinition
            if random.chance(0.25) {
                node = HandlerDefinition(
                    name: "R\(index)",
                    members: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                        memberNumber += 1
                        var member = handler("M\(memberNumber)", &random)
                        member.weight = Int.random(in: 0...2, using: &random)  // many ties
                        return member
                    }
                )
            } else {
                node = handler("H\(index)", &random)
            }
            handlers.append(node)
        }
        for index in handlers.indices where index < count - 1 && random.chance(0.85) {
            handlers[index].next = handlers[Int.random(in: (index + 1)..<count, using: &random)].name
        }
        return ChainDefinition(name: "generated", handlers: handlers)
    }

    static func line(_ random: inout SeededGenerator, entries: [String]) -> String {
        var members = [#""kind":"\#(random.pick(["A", "B", "C"]))""#]
        if let w = random.pick(["1", "2.5", "4", "6", "7.25", "\"3\"", "null", nil]) { members.append(#""w":\#(w)"#) }
        if let c = random.pick(["\"x\"", "\"y\"", "3", "3.0", nil]) { members.append(#""c":\#(c)"#) }
        if let p = random.pick(["1", "null", "false", nil]) { members.append(#""p":\#(p)"#) }
        if let n = random.pick(["{\"k\":1}", "{\"k\":2}", "[]", nil]) { members.append(#""n":\#(n)"#) }
        let lists = [
            #"["a","b"]"#, #"[{"v":2},"b",null]"#, #"[{"v":5},"c",0]"#, #"{"0":{"v":2},"1":"b"}"#, "[]", "[[1]]", nil,
        ]
        if let l = random.pick(lists) { members.append(#""l":\#(l)"#) }
        if random.chance(0.3) { members.append(#""entry":"\#(random.pick(entries))""#) }
        return "{" + members.shuffled(using: &random).joined(separator: ",") + "}"
    }

    @Test(arguments: SeededGenerator.seeds(300))
    func whichAndReplayNameTheSamePathAndOutcome(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let definition = Self.definition(&random)
        // Any node can be an entry (a tree has several), registries included.
        let entries = definition.handlers.map(\.name)
        let lines = (0..<40).map { _ in Self.line(&random, entries: entries) }
        let stream = Array((lines.joined(separator: "\n") + "\n").utf8)

        // The real run, as `chaintrace replay` makes it: slots for the fields rules read, the fast decoder.
        var options = ReplaySession.Options()
        options.keptPaths = lines.count
        let session = try ReplaySession(definition: definition, options: options)
        let report = try session.run(CommandStreamReader(bytes: stream, schema: session.schema))
        #expect(report.paths.count == lines.count)

        // The dry run, as `chaintrace which` makes it: the general decoder, no slots.
        let chain = try definition.makeChain(unknownTypes: .modelFromRules)
        let reader = CommandStreamReader(bytes: stream)
        for replayed in report.paths {
            guard case (_, .command(let command))? = try reader.next() else {
                Issue.record("seed \(seed): the stream ended early")
                return
            }
            let dryRun = try chain.whoWouldHandle(command, from: command.entry)
            let context = "seed \(seed), line \(replayed.line): \(lines[replayed.line - 1])"
            #expect(dryRun.path == replayed.trace.path, "\(context)")
            #expect(dryRun.undecided.isEmpty, "\(context)")
            #expect(dryRun.predictedOutcome == replayed.trace.outcome, "\(context)")
        }
    }

    @Test func aHandlerThatCannotTellMakesTheOutcomeUndecided() throws {
        let chain = try Chain<JSONCommand, JSONValue>(
            "c",
            handlers: [
                Handler("Opaque") { _ in .pass },
                Handler("Known", canHandle: { _ in true }) { _ in .accept("k") },
            ]
        )
        let dryRun = try chain.whoWouldHandle(JSONCommand(kind: "A"))
        #expect(dryRun.undecided == ["Opaque"])
        #expect(dryRun.predictedOutcome == nil)
        #expect(dryRun.handler == "Known")
    }
}
