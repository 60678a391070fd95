import ChainTrace
import ChainTraceAnalysis
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `stats`, `diff` and `export`, run as a user runs them on generated logs, print what the libraries compute for
/// the same logs: the CLI is a thin shell. Counts and totals must be equal; the divergences `diff` lists must be
/// the commands that really changed, each once.
@Suite("Log commands agree with the libraries, through the binary")
struct LogCommandsAgreeWithLibraryTests {
    static let handlers = ["Cell", "List", "Window", "App"]

    static func log(_ random: inout SeededGenerator, ids: Int) -> [Trace] {
        (0..<ids).map { index in
            let length = Int.random(in: 1...handlers.count, using: &random)
            let ending = random.pick([Decision.accepted, .failed, .passed])
            let hops = (0..<length).map { position in
                // Every other trace records each hop inside the one before (as a `next`-linked chain's hops are), the
                // rest none (as logs before parents were recorded).
                Hop(
                    handler: handlers[position],
                    position: position,
                    decision: position == length - 1 ? ending : .passed,
                    parent: index % 2 == 0 && position > 0 ? position - 1 : nil,
                    startOffset: UInt64(position * 1_000),
                    inclusiveDuration: 1_000,
                    selfDuration: UInt64.random(in: 1...900, using: &random)
                )
            }
            let last = handlers[length - 1]
            let outcome: Outcome =
                ending == .accepted
                ? .accepted(by: last) : ending == .failed ? .failed(at: last, error: "e") : .fellOffTheEnd
            return Trace(
                id: UInt64(index),
                commandKind: "Tap",
                commandID: "e\(index)",
                entry: "Cell",
                chain: "editor",
                startTime: Int64(index) * 10_000,
                hops: hops,
                outcome: outcome,
                duration: hops.reduce(0) { $0 + $1.selfDuration }
            )
        }
    }

    static func bytes(_ traces: [Trace]) -> [UInt8] {
        TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
    }

    /// Two runs of the same `ids` commands, the second sending some elsewhere.
    static func runs(_ random: inout SeededGenerator, ids: Int) -> (before: [Trace], after: [Trace]) {
        let before = log(&random, ids: ids)
        let rerun = log(&random, ids: ids)
        return (before, zip(before, rerun).map { original, other in random.chance(0.3) ? other : original })
    }

    /// `traces` as a log of version 2 (compact) or version 1.
    static func bytes(_ traces: [Trace], compact: Bool) -> [UInt8] {
        guard compact else { return bytes(traces) }
        var bytes = CompactTraceLogFormat.header + [0x0A]
        var encoder = CompactTraceLogEncoder()
        for trace in traces { encoder.encode(trace, into: &bytes) }
        return bytes
    }

    @Test(arguments: SeededGenerator.seeds(5))
    func statsDiffAndExportPrintWhatTheLibrariesCompute(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let (before, after) = Self.runs(&random, ids: Int.random(in: 1...40, using: &random))
        let beforePath = try CLI.write(Self.bytes(before), named: "before.jsonl", in: directory)
        let afterPath = try CLI.write(Self.bytes(after), named: "after.jsonl", in: directory)

        // stats: every handler's counts and total self time.
        let stats = try CLI.run("stats", beforePath, "--format", "json")
        #expect(stats.status == 0, "seed \(seed): \(stats.standardError)")
        let report = try JSONDocument(bytes: Array(stats.standardOutput.utf8), file: "stats.json").root
        guard case .array(let rows)? = report["handlers"] else {
            Issue.record("seed \(seed): stats printed \(stats.standardOutput.prefix(200))")
            return
        }
        let hops = before.flatMap(\.hops)
        #expect(report["commands"] == .integer(Int64(before.count)), "seed \(seed)")
        for row in rows {
            guard let name = row["handler"]?.stringValue else { continue }
            let mine = hops.filter { $0.handler == name }
            #expect(row["seen"] == .integer(Int64(mine.count)), "seed \(seed): \(name)")
            #expect(
                row["selfTotalNs"] == .integer(Int64(mine.reduce(0) { $0 + $1.selfDuration })),
                "seed \(seed): \(name)"
            )
            #expect(
                row["failed"] == .integer(Int64(mine.filter { $0.decision == .failed }.count)),
                "seed \(seed): \(name)"
            )
        }
        #expect(Set(rows.compactMap { $0["handler"]?.stringValue }) == Set(hops.map(\.handler)), "seed \(seed)")

        // diff: exactly the commands whose path or outcome changed.
        let diff = try CLI.run("diff", beforePath, afterPath, "--format", "json")
        let changed = zip(before, after).filter { $0.path != $1.path || $0.outcome != $1.outcome }.compactMap(
            \.0.commandID
        )
        #expect(
            diff.status == (changed.isEmpty ? 0 : 1),
            "seed \(seed): diff exited \(diff.status): \(diff.standardError)"
        )
        let comparison = try JSONDocument(bytes: Array(diff.standardOutput.utf8), file: "diff.json").root
        guard case .array(let divergences)? = comparison["divergences"] else {
            Issue.record("seed \(seed): diff printed \(diff.standardOutput.prefix(200))")
            return
        }
        #expect(divergences.compactMap { $0["command"]?.stringValue }.sorted() == changed.sorted(), "seed \(seed)")
        #expect(comparison["compared"] == .integer(Int64(before.count)), "seed \(seed)")
        // Its latency section: each handler's verdict, as the library judges the two profiles.
        guard case .array(let latency)? = comparison["latency"] else {
            Issue.record("seed \(seed): no latency section")
            return
        }
        let verdicts = LatencyChange.between(ChainProfile(before), ChainProfile(after))
        #expect(latency.compactMap { $0["handler"]?.stringValue } == verdicts.map(\.handler), "seed \(seed)")
        #expect(latency.compactMap { $0["verdict"]?.stringValue } == verdicts.map(\.verdict.rawValue), "seed \(seed)")
        #expect(latency.map { $0["selfP95AfterNs"] } == verdicts.map { .integer(Int64($0.p95After)) }, "seed \(seed)")

        // export: the folded stacks the library writes, byte for byte; the Chrome trace reads as JSON.
        let folded = try CLI.run("export", beforePath, "--to", "folded", "--unit", "nanoseconds")
        var export = FoldedStacksExport()
        for trace in before { export.add(trace) }
        #expect(folded.standardOutput == export.text(unit: .nanoseconds), "seed \(seed)")
        let chrome = try CLI.run("export", beforePath, "--to", "chrome")
        #expect(chrome.status == 0, "seed \(seed)")
        _ = try JSONDocument(bytes: Array(chrome.standardOutput.utf8), file: "chrome.json")
    }
}
