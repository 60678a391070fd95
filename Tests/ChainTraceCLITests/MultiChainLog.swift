import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation

/// A generated log of several chains whose handlers share names (a side call into an audit chain, say), and a log
/// of one of those chains' traces alone: what `--chain` must read the first as.
struct MultiChainLog {
    /// Every trace, of two or three chains.
    let traces: [Trace]
    /// The chain chosen.
    let chosen: String
    /// The log of every trace, and the log of the chosen chain's alone.
    let all: String
    let alone: String

    /// The log `seed` generates, written to a fresh directory.
    init(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chains = Array(["orders", "audit", "metrics"].prefix(Int.random(in: 2...3, using: &random)))
        traces = (0..<Int.random(in: 5...60, using: &random)).map { index in
            let path = Array(["Logger", "Check", "Store"].prefix(Int.random(in: 1...3, using: &random)))
            let hops = path.enumerated().map { position, name in
                Hop(
                    handler: name,
                    position: position,
                    decision: position == path.count - 1 ? .accepted : .passed,
                    inclusiveDuration: UInt64.random(in: 100...90_000, using: &random),
                    selfDuration: UInt64.random(in: 100...90_000, using: &random)
                )
            }
            return Trace(
                id: UInt64(index),
                commandKind: "K",
                commandID: "c\(index)",
                entry: path[0],
                chain: random.pick(chains),
                hops: hops,
                outcome: .accepted(by: path.last!),
                duration: 1
            )
        }
        let chosen = random.pick(chains)
        self.chosen = chosen
        let directory = try CLI.temporaryDirectory()
        func write(_ traces: [Trace], _ name: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            var options = TraceLogSink.Options()
            options.writesInBackground = false
            let sink = try TraceLogSink(path: path, options: options)
            for trace in traces { sink.record(trace) }
            try sink.close()
            return path
        }
        all = try write(traces, "all.jsonl")
        alone = try write(traces.filter { $0.chain == chosen }, "alone.jsonl")
    }

    /// The chosen chain's traces.
    var chosenTraces: [Trace] { traces.filter { $0.chain == chosen } }
}
