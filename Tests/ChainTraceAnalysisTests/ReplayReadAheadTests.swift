import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// A replay that reads its stream on another thread (`Options.readsAhead`, the default) against one that reads
/// each line as it sends: on generated streams of commands, chain changes and invalid lines, longer than a
/// read-ahead batch, with invalid lines skipped or stopping the replay — the same report, or the same error.
@Suite("Replay reading ahead against reading in line")
struct ReplayReadAheadTests {
    static let definitionText = """
        {
          "chain": "ahead",
          "handlers": [
            { "name": "Heavy", "accepts": { "all": [ { "kind": ["Coin"] }, { "field": "weight", "min": 5 } ] }, "next": "Card" },
            { "name": "Card", "accepts": { "field": "card.type", "in": ["visa", "amex"] }, "next": "Named" },
            { "name": "Named", "accepts": { "field": "name", "matches": "^[a-z]+$" }, "next": "Light" },
            { "name": "Light", "accepts": { "field": "weight", "max": 1 } }
          ]
        }
        """

    static func line(_ random: inout SeededGenerator, inserted: inout [String]) -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0:
            return random.pick([#"{"kind":"#, #"{"kind":5}"#, #"[1,2]"#, #"{"id":"x","fields":3}"#, "not json"])
        case 1:
            let name = "New\(inserted.count)"
            inserted.append(name)
            return #"{"change":"insert","handler":{"name":"\#(name)","accepts":{"kind":["K\#(name)"]}},"at":"first"}"#
        case 2 where !inserted.isEmpty:
            return #"{"change":"remove","handler":"\#(inserted.removeLast())"}"#
        case 3:
            // A change the chain cannot make: an error from the chain, not the line.
            return #"{"change":"remove","handler":"Nobody"}"#
        default:
            var members = [#""id":"c\#(Int.random(in: 0...9_999, using: &random))""#]
            if random.chance(0.7) { members.append(#""kind":"\#(random.pick(["Coin", "Token", "KNew0"]))""#) }
            if random.chance(0.6) { members.append(#""weight":\#(Double(Int.random(in: -20...200, using: &random)) / 10)"#) }
            if random.chance(0.3) { members.append(#""card":{"type":"\#(random.pick(["visa", "amex", "diners"]))"}"#) }
            if random.chance(0.3) { members.append(#""name":"\#(random.pick(["ada", "Ada", "zed", "ünï"]))""#) }
            members.shuffle(using: &random)
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    struct Outcome: Equatable {
        var commands = 0
        var changes = 0
        var invalidLineCount = 0
        var invalidLines: [String] = []
        var paths: [String] = []
        var handlers: [String] = []
        var error: String?
    }

    func replay(_ bytes: [UInt8], readsAhead: Bool, skips: Bool) throws -> Outcome {
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "ahead.json")
        var options = ReplaySession.Options()
        options.readsAhead = readsAhead
        options.skipsInvalidLines = skips
        options.keptPaths = .max
        let session = try ReplaySession(definition: definition, options: options)
        var outcome = Outcome()
        do {
            let report = try session.run(session.openStream(bytes: bytes, name: "ahead.jsonl"))
            outcome.commands = report.commands
            outcome.changes = report.changes
            outcome.invalidLineCount = report.invalidLineCount
            outcome.invalidLines = report.invalidLines.map(\.description)
            outcome.paths = report.paths.map { "\($0.line) \($0.trace.commandID ?? "-") \($0.trace.path) \($0.trace.outcome) v\($0.trace.chainVersion)" }
            outcome.handlers = report.profile.handlers.map {
                "\($0.handler): seen \($0.seen), accepted \($0.accepted), passed \($0.passed), failed \($0.failed)"
            }
        } catch {
            outcome.error = "\(error)"
        }
        return outcome
    }

    @Test(arguments: SeededGenerator.seeds(24))
    func readingAheadChangesNothing(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var inserted: [String] = []
        let count = Int.random(in: 1...1_500, using: &random)
        let lines = (0..<count).map { _ in Self.line(&random, inserted: &inserted) }
        // Now and then a torn last line, with no newline.
        let bytes = Array(lines.joined(separator: "\n").utf8) + (random.chance(0.8) ? [UInt8(ascii: "\n")] : [])
        for skips in [true, false] {
            let ahead = try replay(bytes, readsAhead: true, skips: skips)
            let inLine = try replay(bytes, readsAhead: false, skips: skips)
            #expect(ahead == inLine, "seed \(seed), skips \(skips)")
            #expect(ahead.commands + ahead.changes + ahead.invalidLineCount > 0 || ahead.error != nil, "seed \(seed)")
        }
    }
}
