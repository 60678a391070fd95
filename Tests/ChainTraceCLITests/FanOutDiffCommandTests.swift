import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `chaintrace diff` of two recordings of an app whose stages fan out, as a user makes them: the same commands
/// twice, through generated trees of instrumented handlers that run some of their children at once.
@Suite("diff of logs whose stages fan out", .tags(.concurrent))
struct FanOutDiffCommandTests {
    /// Records `commands` runs of `tree` into a trace log at `path`, one command after another or all at once.
    static func record(_ tree: HandlerTree, commands: Int, atOnce: Bool, to path: String) async throws {
        let sink = try TraceLogSink(path: path)
        await ChainTracing.withRecorder(Recorder(sink: sink)) {
            if atOnce {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<commands { group.addTask { _ = await tree.run() } }
                }
            } else {
                for _ in 0..<commands { _ = await tree.run() }
            }
        }
        try sink.close()
    }

    @Test("two recordings of the same fan-outs do not diverge; another tree does", arguments: SeededGenerator.seeds(4))
    func sameFanOutsDoNotDiverge(seed: UInt64) async throws {
        // Every handler waits 2 ms: siblings started at once overlap, whatever the load.
        let tree = HandlerTree.random(seed: seed, chain: "fan", leafDepth: 2, atOnce: 0.8, maximumWait: .zero)
            .waiting(.milliseconds(2))
        let directory = try CLI.temporaryDirectory()
        let paths = (0..<2).map { directory.appendingPathComponent("run-\($0).jsonl").path }
        for path in paths { try await Self.record(tree, commands: 15, atOnce: false, to: path) }
        let same = try CLI.run("diff", paths[0], paths[1])
        #expect(same.status == 0, "seed \(seed): \(same.standardOutput) \(same.standardError)")
        #expect(same.standardOutput.contains("No divergences"), "seed \(seed): \(same.standardOutput)")
        #expect(!same.standardError.contains("warning"), "seed \(seed): \(same.standardError)")

        // A tree with one handler more under the root runs another path: every command diverges.
        let grown = HandlerTree(
            name: tree.name,
            children: tree.children + [
                HandlerTree(name: "Extra", children: [], atOnce: false, wait: .zero, chain: "fan")
            ],
            atOnce: tree.atOnce,
            wait: tree.wait,
            chain: "fan"
        )
        let other = directory.appendingPathComponent("grown.jsonl").path
        try await Self.record(grown, commands: 15, atOnce: false, to: other)
        let changed = try CLI.run("diff", paths[0], other, "--format", "json")
        #expect(changed.status == 1, "seed \(seed): \(changed.standardOutput)")
        #expect(changed.standardOutput.contains("\"total\":15"), "seed \(seed): \(changed.standardOutput.prefix(300))")
    }

    @Test("commands without ids recorded at once are matched by place, with a warning")
    func concurrentCommandsWithoutIDsAreWarnedOf() async throws {
        let directory = try CLI.temporaryDirectory()
        let paths = (0..<2).map { directory.appendingPathComponent("run-\($0).jsonl").path }
        for path in paths {
            let sink = try TraceLogSink(path: path)
            // Forty commands started at once, the first to start the slowest: each trace is written as its command
            // finishes, so the log cannot be in the order they started.
            await ChainTracing.withRecorder(Recorder(sink: sink)) {
                await withTaskGroup(of: Void.self) { group in
                    for number in 0..<40 {
                        group.addTask {
                            await traceHop("Slow", command: number, chain: "slow") {
                                try? await Task.sleep(for: .microseconds((40 - number) * 200))
                            }
                        }
                    }
                }
            }
            try sink.close()
        }
        let output = try CLI.run("diff", paths[0], paths[1])
        #expect(output.standardError.contains("without an id ran at once with another"), "\(output.standardError)")
        let json = try CLI.run("diff", paths[0], paths[1], "--format", "json")
        #expect(!json.standardOutput.contains("\"uncertainPlaces\":0"), "\(json.standardOutput.prefix(300))")
        #expect(output.standardError.contains("TracedCommand.commandID"), "\(output.standardError)")
        // Written in order, the same commands draw no warning.
        let inOrder = (0..<2).map { directory.appendingPathComponent("in-order-\($0).jsonl").path }
        for path in inOrder {
            let sink = try TraceLogSink(path: path)
            await ChainTracing.withRecorder(Recorder(sink: sink)) {
                for number in 0..<40 { await traceHop("Slow", command: number, chain: "slow") { () async in } }
            }
            try sink.close()
        }
        let quiet = try CLI.run("diff", inOrder[0], inOrder[1])
        #expect(quiet.status == 0 && !quiet.standardError.contains("warning"), "\(quiet.standardError)")
        let quietJSON = try CLI.run("diff", inOrder[0], inOrder[1], "--format", "json")
        #expect(quietJSON.standardOutput.contains("\"uncertainPlaces\":0"), "\(quietJSON.standardOutput.prefix(300))")
    }
}
