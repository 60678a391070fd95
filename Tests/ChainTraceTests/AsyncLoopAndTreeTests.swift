import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Async chains as trees and as loops, generated: commands sent in at any node climb through the parents that
/// suspend on the way to the first that takes them, as the dry run says; a chain relinked into a loop of any size
/// stops a command that would go round forever with a `.loop` error naming exactly the loop, in the real run and the
/// dry run, while commands taken before the loop are unaffected.
@Suite("Async trees and loops")
struct AsyncLoopAndTreeTests {
    static func handler(_ name: String) -> AsyncHandler<String, String> {
        AsyncHandler(name, canHandle: { $0 == name }) { command in
            await Task.yield()
            return command == name ? .accept(name) : .pass
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func commandsClimbTreesAndLoopsAreStopped(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 2...9, using: &random)
        var parent: [Int?] = []
        let chain = try AsyncChain<String, String>("async-tree-\(seed)")
        for index in 0..<count {
            let up: Int? = index == 0 ? nil : Int.random(in: 0..<index, using: &random)
            parent.append(up)
            try chain.add(Self.handler("N\(index)"), next: up.map { "N\($0)" })
        }
        func climb(_ entry: Int) -> [String] { TreeModelTests.climb(parent, from: entry) }
        for _ in 0..<8 {
            let entry = Int.random(in: 0..<count, using: &random)
            let upward = climb(entry)
            let target = random.chance(0.7) ? random.pick(upward) : "nobody"
            let expected = upward.contains(target) ? Array(upward.prefix { $0 != target }) + [target] : upward
            let traces = try await captureTraces { _ = try await chain.send(target, from: "N\(entry)") }
            #expect(traces.first?.path == expected, "seed \(seed): \(target) from N\(entry)")
            #expect(try chain.whoWouldHandle(target, from: "N\(entry)").path == expected, "seed \(seed): dry run")
        }

        // Relink the root into a loop through one of its descendants.
        let deepest = Int.random(in: 1..<count, using: &random)
        let loop = climb(deepest)
        try chain.link("N0", to: "N\(deepest)")
        let error = try await #require(throws: ChainError.self, "seed \(seed)") {
            try await chain.send("nobody", from: "N\(deepest)")
        }
        #expect(error.code == .loop && Set(error.handlers) == Set(loop), "seed \(seed): \(error.handlers) vs \(loop)")
        let dryError = try #require(throws: ChainError.self, "seed \(seed)") {
            try chain.whoWouldHandle("nobody", from: "N\(deepest)")
        }
        #expect(dryError.code == .loop && Set(dryError.handlers) == Set(loop), "seed \(seed)")
        let taker = random.pick(loop)
        #expect(try await chain.send(taker, from: "N\(deepest)") == taker, "seed \(seed)")
    }
}
