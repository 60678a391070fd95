import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A log recorded in an app holds every chain its recorder saw — the orders chain and the audit chain it calls
/// into, whose handlers may share names. Replaying it through one chain's definition replays that chain's
/// commands only, in order, and compares them with that chain's traces of an `--expect` log; the others are set
/// aside and counted, as `gen-tests --definition` sets them aside; `--chain` replays another recorded chain's
/// commands through the definition and compares them by id, whatever the chains are named. A log with none of the
/// chain is an error that names `--chain`, not a replay of the wrong commands.
@Suite("Replaying one chain of a log of several")
struct ReplayOneChainCommandTests {
    static let definitions = [
        "orders":
            #"{"chain":"orders","handlers":[{"name":"Check","accepts":{"kind":"Pay"},"next":"Store"},{"name":"Store","accepts":{"kind":"Ship"}}]}"#,
        "audit":
            #"{"chain":"audit","handlers":[{"name":"Check","accepts":{"kind":"Ship"},"next":"Store"},{"name":"Store","accepts":{"kind":"Pay"}}]}"#,
    ]

    @Test(arguments: SeededGenerator.seeds(6))
    func eachChainReplaysItsOwnCommands(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        // Each chain's commands replayed through its own definition: the traces an app would have recorded.
        var recorded: [String: [Trace]] = [:]
        for (chain, text) in Self.definitions {
            let definition = try ChainDefinition.load(bytes: Array(text.utf8), file: "\(chain).chain.json")
            try text.write(
                toFile: directory.appendingPathComponent("\(chain).chain.json").path,
                atomically: true,
                encoding: .utf8
            )
            let lines = (0..<Int.random(in: 0...12, using: &random)).map { index in
                #"{"kind":"\#(random.pick(["Pay", "Ship", "Refund"]))","id":"\#(chain)-\#(index)"}"#
            }
            let session = try ReplaySession(definition: definition)
            let sink = InMemoryTraceSink()
            _ = try session.run(
                session.openStream(bytes: Array((lines.joined(separator: "\n") + "\n").utf8)),
                traceLog: sink
            )
            recorded[chain] = sink.traces
        }
        // One log, the two chains' traces interleaved as the app sent them.
        var mixed: [Trace] = []
        var (orders, audit) = (recorded["orders"]!, recorded["audit"]!)
        while !orders.isEmpty || !audit.isEmpty {
            if audit.isEmpty || (!orders.isEmpty && random.chance(0.5)) {
                mixed.append(orders.removeFirst())
            } else {
                mixed.append(audit.removeFirst())
            }
        }
        let log = directory.appendingPathComponent("app.jsonl").path
        var options = TraceLogSink.Options()
        options.format = random.chance(0.5) ? .compact : .jsonLines
        options.writesInBackground = false
        let sink = try TraceLogSink(path: log, options: options)
        for trace in mixed { sink.record(trace) }
        try sink.close()

        for (chain, other) in [("orders", "audit"), ("audit", "orders")] {
            let definition = directory.appendingPathComponent("\(chain).chain.json").path
            let run = try CLI.run("replay", definition, log, "--expect", log, "--format", "json", "--paths", "100")
            let (own, others) = (recorded[chain]!.count, recorded[other]!.count)
            let context = "seed \(seed), \(chain): \(run.standardError)"
            guard own > 0 else {
                #expect(run.status == (others > 0 ? 2 : 0), "\(context)")
                if others > 0 { #expect(run.standardError.contains("found only other chains'"), "\(context)") }
                continue
            }
            // The same commands through the same chain: no divergence, so exit status 0.
            #expect(run.status == 0, "\(context)")
            let json = try CLI.json(run)
            let ids = (json["paths"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids == recorded[chain]!.compactMap(\.commandID), "\(context)")
            let noun = others == 1 ? "1 command" : "\(others) commands"
            #expect(run.standardError.contains("set aside \(noun)") == (others > 0), "\(context)")
            let traces = others == 1 ? "1 trace" : "\(others) traces"
            #expect(run.standardError.contains("set aside \(traces) of the --expect log") == (others > 0), "\(context)")

            // --chain replays the other chain's commands through this definition (a configuration's sessions
            // through another) and compares them with the other chain's traces, whatever the chains are named.
            let across = try CLI.run(
                "replay",
                definition,
                log,
                "--chain",
                other,
                "--expect",
                log,
                "--format",
                "json",
                "--paths",
                "100"
            )
            if others > 0 {
                #expect([0, 1].contains(across.status), "\(context): \(across.standardError)")
                let acrossJSON = try CLI.json(across)
                let acrossIDs = (acrossJSON["paths"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                #expect(acrossIDs == recorded[other]!.compactMap(\.commandID), "\(context)")
                #expect((acrossJSON["comparison"] as? [String: Any])?["compared"] as? Int == others, "\(context)")
            } else {
                #expect(
                    across.status == 2 && across.standardError.contains("pass --chain NAME"),
                    "\(context): \(across.standardError)"
                )
            }

            // gen-tests with the definition writes a test for each of its chain's commands, and none for the others.
            let tests = try CLI.run("gen-tests", log, "--definition", definition)
            #expect(tests.status == 0, "\(context): \(tests.standardError)")
            #expect(tests.standardOutput.components(separatedBy: "@Test func").count - 1 == own, "\(context)")
            #expect(
                tests.standardError.contains("set aside \(noun)") == (others > 0),
                "\(context): \(tests.standardError)"
            )
        }
    }
}
