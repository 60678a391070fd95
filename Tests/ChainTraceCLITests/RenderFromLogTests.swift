import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `render --trace LOG --command ID` without a definition: the log is the definition. The command's chain is drawn
/// with every handler the log shows for that chain — visited by this command (numbered) or not (grey) — and none
/// is called "not in the definition"; handlers of other chains in the same log stay out.
@Suite("render a command's path from the log alone")
struct RenderFromLogTests {
    /// A log of 2–3 chains, each with its own handlers, and traces that walk a random prefix of their chain.
    static func log(_ random: inout SeededGenerator) -> (traces: [Trace], chains: [String: [String]]) {
        var chains: [String: [String]] = [:]
        for chain in 0..<Int.random(in: 2...3, using: &random) {
            chains["chain\(chain)"] = (0..<Int.random(in: 2...9, using: &random)).map { "C\(chain)H\($0)" }
        }
        let names = chains.keys.sorted()
        var traces: [Trace] = []
        for id in 0..<Int.random(in: 4...40, using: &random) {
            let chain = random.pick(names)
            let handlers = chains[chain]!
            let length = Int.random(in: 1...handlers.count, using: &random)
            let ending: Decision = random.pick([.accepted, .failed, .passed])
            let hops = (0..<length).map { position in
                Hop(
                    handler: handlers[position],
                    position: position,
                    decision: position == length - 1 ? ending : .passed,
                    reason: position == length - 1 && ending == .failed ? "broke" : nil,
                    startOffset: UInt64(position * 100),
                    inclusiveDuration: UInt64((length - position) * 100),
                    selfDuration: 100
                )
            }
            let outcome: Outcome =
                switch ending {
                case .accepted: .accepted(by: handlers[length - 1])
                case .failed: .failed(at: handlers[length - 1], error: "broke")
                default: .fellOffTheEnd
                }
            traces.append(
                Trace(
                    id: UInt64(id),
                    commandKind: "K",
                    commandID: "cmd\(id)",
                    entry: handlers[0],
                    chain: chain,
                    hops: hops,
                    outcome: outcome,
                    duration: UInt64(length * 100)
                )
            )
        }
        return (traces, chains)
    }

    static func occurrences(of text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    @Test(arguments: SeededGenerator.seeds(12))
    func everyHandlerTheLogShowsForTheChainIsDrawn(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (traces, chains) = Self.log(&random)
        let bytes = TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        let log = try CLI.write(bytes, named: "log.jsonl", in: try CLI.temporaryDirectory())

        let pickedIndex = Int.random(in: 0..<traces.count, using: &random)
        let picked = traces[pickedIndex]
        // By id, and by 1-based number: the same diagram.
        let byID = try CLI.run("render", "--trace", log, "--command", picked.commandID!, "--format", "dot")
        let byNumber = try CLI.run("render", "--trace", log, "--command", String(pickedIndex + 1), "--format", "dot")
        #expect(byID.status == 0, "seed \(seed): \(byID.standardError)")
        #expect(byID.standardOutput == byNumber.standardOutput, "seed \(seed)")
        let dot = byID.standardOutput

        #expect(!dot.contains("not in the definition"), "seed \(seed): a handler of the log drawn as foreign")
        let known = Set(traces.filter { $0.chain == picked.chain }.flatMap(\.path))
        let visited = Set(picked.path)
        for handler in chains[picked.chain]! {
            let drawn = dot.contains("<b>\(handler)</b>")
            #expect(
                drawn == known.contains(handler),
                "seed \(seed): \(handler) drawn \(drawn), in the log \(known.contains(handler))"
            )
        }
        for (chain, handlers) in chains where chain != picked.chain {
            for handler in handlers {
                #expect(
                    !dot.contains("<b>\(handler)</b>"),
                    "seed \(seed): \(handler) of \(chain) drawn in \(picked.chain)"
                )
            }
        }
        // One grey "not visited" note per handler the log knows that this command did not visit (plus the legend's).
        let unvisited = known.subtracting(visited).count
        #expect(Self.occurrences(of: ">not visited<", in: dot) == unvisited, "seed \(seed)")
        #expect(dot.contains("Path of K \(picked.commandID!) through \(picked.chain)"), "seed \(seed)")
    }
}
