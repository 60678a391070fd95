import ChainTrace
import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

/// A traced command's kind, id and payload are the app's code, run while the recorder describes the command, and
/// that code may send commands of its own — of the same type, from a place that knows the type is `Sendable`
/// where the first did not. The recorder's facts about the type are then worked out again while the first
/// description still uses the old ones (lent, unretained: `ThreadState.withCommandTypeInfo`); the old facts must
/// outlive it. Run under AddressSanitizer by `Scripts/test-sanitized.sh`, which reports a use after free.
@Suite("Commands sent while a command is described", .tags(.concurrent))
struct ReentrantDescriptionTests {
    struct Audited: TracedCommand, Sendable {
        var number: Int
        var depth: Int
        var commandKind: String {
            // The description sends another command of this type, known `Sendable` here.
            if depth > 0 {
                _ = ReentrantDescriptionTests.sendKnowingSendable(Audited(number: number + 1, depth: depth - 1))
            }
            return "Audited\(depth)"
        }
    }

    /// A hop for any command: here the type is not known to be `Sendable`.
    static func sendGenerically<Command>(_ command: Command) -> Int {
        traceHop("Generic", command: command, chain: "generic") { 1 }
    }

    static func sendKnowingSendable(_ command: Audited) -> Int {
        traceHop("Sendable", command: command, chain: "sendable") { 2 }
    }

    @Test(arguments: SeededGenerator.seeds(8))
    func everyCommandIsDescribedAndTraced(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let sink = InMemoryTraceSink()
        var expected: [String] = []
        // On a thread of its own each time, so that the first facts about the type are the generic caller's.
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let depth = Int.random(in: 1...3, using: &random)
            let thread = JoinableThread {
                ChainTracing.withRecorder(Recorder(sink: sink)) {
                    // The first command makes the facts the second's description is lent.
                    _ = Self.sendGenerically(Audited(number: 0, depth: 0))
                    _ = Self.sendGenerically(Audited(number: 0, depth: depth))
                }
            }
            thread.join()
            expected += ["Audited0"] + (0...depth).map { "Audited\($0)" }
        }
        #expect(sink.traces.map(\.commandKind).sorted() == expected.sorted(), "seed \(seed)")
    }
}
