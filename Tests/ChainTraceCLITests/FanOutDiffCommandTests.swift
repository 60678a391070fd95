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
        // Siblings started at once meet inside their hops (HandlerTree.run), so they overlap whatever the load.
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

    /// The groups a `ran at once` line of `diff`'s text names, each as a set of handler names.
    static func groups(on label: String, in output: String) -> [Set<String>]? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
        let listed = line.components(separatedBy: label).last?.trimmingCharacters(in: .whitespaces) ?? ""
        guard listed != "none" else { return [] }
        return listed.components(separatedBy: "; ").map { Set($0.components(separatedBy: " ‖ ")) }
    }

    @Test("a group that ran in turn instead of at once, in the same order, is shown as such")
    func aGroupRunInTurnIsShown() throws {
        var shown = 0
        for seed in SeededGenerator.seeds(60) {
            var random = SeededGenerator(seed: seed)
            let tree = ScheduledTree.random(&random, atOnce: 0.6)
            var target: (index: Int, children: Set<String>)?
            var index = 0
            tree.visit { node in
                if target == nil, node.atOnce, node.children.count >= 2 {
                    target = (index, Set(node.children.map(\.name)))
                }
                index += 1
            }
            guard let target else { continue }
            let inTurn = tree.editing(target.index) { $0.atOnce = false }
            // A run in which nothing ran at once is compared in order (the same order: no divergence); one in which
            // other hops still ran at once is compared order-free, and the group run in turn is a divergence.
            var othersAtOnce = false
            inTurn.visit { node in othersAtOnce = othersAtOnce || (node.atOnce && node.children.count >= 2) }
            guard othersAtOnce else { continue }
            let first = tree.run(&random)
            let second = inTurn.run(&random)
            // Only where both runs read the same in order: the text alone would not say what differs.
            guard first.path == second.path, first.outcome == second.outcome else { continue }
            let directory = try CLI.temporaryDirectory()
            var paths: [String] = []
            for (number, trace) in [first, second].enumerated() {
                let path = directory.appendingPathComponent("run-\(number).jsonl").path
                let sink = try TraceLogSink(path: path)
                sink.record(trace)
                try sink.close()
                paths.append(path)
            }
            let output = try CLI.run("diff", paths[0], paths[1])
            #expect(output.status == 1, "seed \(seed): \(output.standardOutput) \(output.standardError)")
            #expect(output.standardOutput.contains("differentPath"), "seed \(seed): \(output.standardOutput)")
            let expected = Self.groups(on: "ran at once, expected:", in: output.standardOutput)
            let actual = Self.groups(on: "ran at once, actual:", in: output.standardOutput)
            #expect(expected?.contains(target.children) == true, "seed \(seed): \(output.standardOutput)")
            #expect(actual?.contains(target.children) == false, "seed \(seed): \(output.standardOutput)")
            shown += 1
        }
        #expect(shown >= 3, "only \(shown) trees ran a serialised group in the same order")
    }
}
