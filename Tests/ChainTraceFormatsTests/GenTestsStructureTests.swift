import ChainTrace
import ChainTraceTestGeneration
import ChainTraceDefinitions
import ChainTraceTestSupport
import Foundation
import Testing

/// The Swift `gen-tests` writes for a generated log: one test per trace, with unique names built from the ids; in
/// exhaustive mode an `expectPath` with every hop, in both modes the outcome's assertion with the right handler
/// and error; the chain built from the definition path when there is one, else from `makeRecordedChain()`.
@Suite("Generated test files")
struct GenTestsStructureTests {
    static func occurrences(_ text: String, in source: String) -> Int {
        source.components(separatedBy: text).count - 1
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func oneTestPerTraceWithItsAssertions(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let traces = (0..<Int.random(in: 1...15, using: &random)).map { index in
            let length = Int.random(in: 1...4, using: &random)
            let hops = (0..<length).map { position in
                Hop(handler: "H\(position)", position: position, decision: position == length - 1 ? .accepted : .passed, inclusiveDuration: 1, selfDuration: 1)
            }
            let outcome: Outcome = switch Int.random(in: 0..<3, using: &random) {
            case 0: .accepted(by: "H\(length - 1)")
            case 1: .failed(at: "H\(length - 1)", error: "broke \(index)")
            default: .fellOffTheEnd
            }
            return Trace(id: UInt64(index), commandKind: "K", commandID: random.chance(0.7) ? "id-\(index % 5)" : nil, entry: "H0",
                         chain: "c", hops: hops, outcome: outcome, duration: 1)
        }
        let mode = random.pick(SwiftTestGenerator.Mode.allCases)
        let definition = random.chance(0.5) ? "defs/c.chain.json" : nil
        var generator = SwiftTestGenerator(logName: "log.jsonl", definitionPath: definition, mode: mode, commandLine: "chaintrace gen-tests log.jsonl")
        for (index, trace) in traces.enumerated() { generator.add(trace, line: index + 2) }
        let source = generator.source

        let names = source.split(separator: "\n").filter { $0.contains("@Test func ") }.map { String($0) }
        #expect(names.count == traces.count, "seed \(seed)")
        #expect(Set(names).count == names.count, "seed \(seed): test names repeat")
        #expect(Self.occurrences("expectPath(", in: source) == (mode == .exhaustive ? traces.count : 0), "seed \(seed)")
        #expect(Self.occurrences("expectHandled(", in: source) == traces.filter { $0.outcome.acceptingHandler != nil }.count, "seed \(seed)")
        #expect(Self.occurrences("expectUnhandled(", in: source) == traces.filter { $0.outcome == .fellOffTheEnd }.count, "seed \(seed)")
        for trace in traces {
            if case .failed(let handler, let error) = trace.outcome {
                #expect(source.contains("expectFailed(traces[0], at: \"\(handler)\", error: \"\(error)\")"), "seed \(seed)")
            }
            if mode == .exhaustive {
                #expect(source.contains("expectPath(traces[0], [\(trace.path.map { "\"\($0)\"" }.joined(separator: ", "))])"), "seed \(seed)")
            }
        }
        if let definition {
            #expect(source.contains("ChainDefinition.load(path: \"\(definition)\")"), "seed \(seed)")
        } else {
            #expect(source.contains("chain = try makeRecordedChain()"), "seed \(seed)")
        }
    }
}
