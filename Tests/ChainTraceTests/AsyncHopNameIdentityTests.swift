import ChainTrace
import ChainTraceTestSupport
import Testing

/// An async hop that joins its task's trace under the last trace's name at that hop opens by the name's identity,
/// without passing the name on (`ActiveTrace.beginFollowingName`). Names are what the handlers said, whatever
/// the strings' storage: the same stored string every command, a new string of the same characters every command
/// (never the same identity), a name that changes with the command, small and heap strings, and paths whose length
/// changes between commands — each traced command's path is exactly the names its handlers gave.
@Suite("Async hops named by identity", .tags(.concurrent))
struct AsyncHopNameIdentityTests {
    /// How a handler names its hop.
    enum Naming: Sendable, CaseIterable {
        /// A stored string, the same storage every command.
        case stored
        /// A new string every command, equal to the stored one.
        case madeAfresh
        /// Another name when the command is odd.
        case byCommand
    }

    /// A handler of an async protocol chain of plain classes: forwards unless the command stops at it.
    final class Stage {
        let storedName: String
        let naming: Naming
        let index: Int
        var next: Stage?

        init(index: Int, naming: Naming, long: Bool) {
            self.index = index
            self.naming = naming
            // Small strings are their own storage; past 15 bytes a string is on the heap.
            storedName = long ? "AsyncIdentityStageWithALongName\(index)" : "S\(index)"
        }

        func name(for command: Int) -> String {
            switch naming {
            case .stored: storedName
            case .madeAfresh: String(decoding: Array(storedName.utf8), as: UTF8.self)
            case .byCommand: command % 2 == 0 ? storedName : "\(storedName)-odd"
            }
        }

        func handle(_ command: Int) async -> Int? {
            await traceHop(name(for: command), command: command, chain: "async-name-identity") {
                if command % 7 == index { return index }
                return await next?.handle(command)
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(16))
    func eachTracedPathIsTheNamesItsHandlersGave(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...6, using: &random)
        let stages = (0..<count).map {
            Stage(index: $0, naming: Naming.allCases.randomElement(using: &random)!, long: Bool.random(using: &random))
        }
        for (stage, following) in zip(stages, stages.dropFirst()) { stage.next = following }
        let commands = (0..<60).map { _ in Int.random(in: 0..<100, using: &random) }
        let sink = InMemoryTraceSink()
        await ChainTracing.withRecorder(Recorder(sink: sink)) {
            for command in commands { _ = await stages[0].handle(command) }
        }
        let traces = sink.traces
        #expect(traces.count == commands.count, "seed \(seed)")
        for (trace, command) in zip(traces, commands) {
            let reached = min(command % 7, count - 1)
            let expected = stages[...reached].map { $0.name(for: command) }
            #expect(trace.path == expected, "seed \(seed), command \(command)")
        }
    }
}
