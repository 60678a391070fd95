import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
@_spi(Benchmarks) import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Synchronization
import Testing

/// A replay warms up (`Options.warmUpCommands`) by sending its stream's first commands once, untimed, through a
/// chain of its own before it starts: that changes nothing a replay reports — on generated streams of commands,
/// chain changes, invalid and blank lines, read ahead or in line, skipping invalid lines or stopping at the first,
/// with a trace log or without — and runs none of the app's handler types.
@Suite("A replay's warm-up changes nothing it reports")
struct ReplayWarmUpTests {
    let replays = ReplayReadAheadTests()

    @Test(arguments: SeededGenerator.seeds(24))
    func warmingUpChangesNothing(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = ReplayReadAheadTests.stream(&random, count: Int.random(in: 1...300, using: &random))
        let skips = random.chance(0.5)
        let logs = random.chance(0.5)
        let readsAhead = random.chance(0.5)
        let warmUp = random.pick([1, 2, 7, 64, 1_000])
        let cold = try replays.replay(bytes, readsAhead: readsAhead, skips: skips, batchSize: 16, logs: logs, warmUp: 0)
        let warm = try replays.replay(
            bytes,
            readsAhead: readsAhead,
            skips: skips,
            batchSize: 16,
            logs: logs,
            warmUp: warmUp
        )
        #expect(warm == cold, "seed \(seed), warm-up \(warmUp), skips \(skips), logs \(logs), ahead \(readsAhead)")
    }

    /// Streams whose first lines are the ones a warm-up stops at or steps over: a change the later commands need
    /// (an entry it inserts), an invalid line, blank lines, a command entering where no handler is.
    @Test(arguments: SeededGenerator.seeds(16))
    func warmingUpBeforeChangesAndBadLinesChangesNothing(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var lines: [String] = []
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            lines.append(
                random.pick([
                    #"{"kind":"Coin","weight":6}"#, "", #"{"entry":"Nowhere"}"#, "not json",
                    #"{"kind":"Coin","entry":"Light","weight":0.5}"#,
                ])
            )
        }
        lines.append(#"{"change":"insert","handler":{"name":"Early","accepts":{"kind":["Token"]}},"at":"first"}"#)
        for _ in 0..<Int.random(in: 1...20, using: &random) {
            lines.append(
                random.pick([#"{"kind":"Token","entry":"Early"}"#, #"{"kind":"Coin","weight":9}"#, #"{"name":"ada"}"#])
            )
        }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        for skips in [true, false] {
            let cold = try replays.replay(bytes, readsAhead: false, skips: skips, warmUp: 0)
            let warm = try replays.replay(
                bytes,
                readsAhead: random.chance(0.5),
                skips: skips,
                warmUp: Int.random(in: 1...30, using: &random)
            )
            #expect(warm == cold, "seed \(seed), skips \(skips)")
        }
    }

    /// A handler of an app's type runs once for each command that reaches it: the warm-up models it from its rules.
    @Test(arguments: SeededGenerator.seeds(8))
    func appHandlerTypesRunOnlyInTheReplay(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let definition = try ChainDefinition.load(
            bytes: Array(
                """
                { "chain": "typed", "handlers": [
                    { "name": "Counted", "type": "Counting", "next": "Heavy" },
                    { "name": "Heavy", "accepts": { "field": "weight", "min": 5 } } ] }
                """.utf8
            ),
            file: "typed.json"
        )
        let runs = Mutex(0)
        var options = ReplaySession.Options()
        options.types.register("Counting") { definition in
            Handler(definition.name) { _ in
                runs.withLock { $0 += 1 }
                return .pass
            }
        }
        options.warmUpCommands = Int.random(in: 1...100, using: &random)
        options.readsInLine = random.chance(0.5)
        let count = Int.random(in: 1...80, using: &random)
        let stream = (0..<count).map { #"{"weight":\#($0 % 10)}"# }.joined(separator: "\n")
        let session = try ReplaySession(definition: definition, options: options)
        let report = try session.run(session.openStream(bytes: Array(stream.utf8)))
        #expect(report.commands == count, "seed \(seed)")
        #expect(runs.withLock { $0 } == count, "seed \(seed): warm-up of \(options.warmUpCommands)")
    }
}
