import ChainTrace
import ChainTraceTestSupport
import Testing

/// A synchronous instrumented hop whose name is the very string the last trace had at that hop opens without
/// storing it (`StringIdentity`); any other name — equal characters stored apart, another name, a hop past the
/// last trace's length — is compared and stored. Generated runs of commands through handlers renamed between
/// commands check that every trace names its hops as they were named when it ran.
@Suite("Instrumented names that follow the last trace's")
struct FollowingNamesTests {
    /// A handler of a user's protocol chain, with a name that may change between commands.
    final class Renamable: @unchecked Sendable {
        var name: String
        var next: Renamable?
        let takes: Int

        init(name: String, takes: Int) {
            self.name = name
            self.takes = takes
        }

        func handle(_ value: Int) -> Int? {
            traceHop(name, command: value, chain: "renamable") {
                value % takes == 0 ? takes : next?.handle(value)
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func everyTraceNamesItsHopsAsTheyWereNamed(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pool =
            (0..<4).map { _ in random.hostileName(maximumLength: 30) } + [
                "Validator", "A long handler name past fifteen bytes",
            ]
        var handlers = (0..<Int.random(in: 1...8, using: &random)).map { _ in
            Renamable(name: pool.randomElement(using: &random)!, takes: Int.random(in: 2...9, using: &random))
        }
        let sink = InMemoryTraceSink()
        var expected: [[String]] = []
        ChainTracing.withRecorder(Recorder(sink: sink)) {
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                // Most commands change nothing, as in a real chain; the others rename, relink or regrow it.
                if random.chance(0.4) {
                    let handler = handlers.randomElement(using: &random)!
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: handler.name = String(decoding: Array(handler.name.utf8), as: UTF8.self)
                    case 1: handler.name = pool.randomElement(using: &random)!
                    case 2:
                        handlers.append(
                            Renamable(
                                name: pool.randomElement(using: &random)!,
                                takes: Int.random(in: 2...9, using: &random)
                            )
                        )
                    default: if handlers.count > 1 { handlers.removeLast() }
                    }
                }
                for (handler, following) in zip(handlers, handlers.dropFirst()) { handler.next = following }
                handlers.last?.next = nil
                let value = Int.random(in: 0...500, using: &random)
                let stop = handlers.firstIndex { value % $0.takes == 0 } ?? handlers.count - 1
                expected.append(handlers[...stop].map(\.name))
                _ = handlers[0].handle(value)
            }
        }
        let paths = sink.traces.map(\.path)
        #expect(paths.count == expected.count, "seed \(seed)")
        for (index, (path, names)) in zip(paths, expected).enumerated() {
            #expect(
                path.elementsEqual(names) { $0.utf8.elementsEqual($1.utf8) },
                "seed \(seed), command \(index): \(path) is not \(names)"
            )
        }
    }
}
