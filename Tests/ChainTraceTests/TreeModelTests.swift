import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Responder trees, generated: nodes added with a parent they forward to, commands sent in at any node. Every
/// command climbs from its entry through its parents to the first node that takes it — or off the root — in the
/// real run and the dry run alike; an unknown entry is an error naming the chain's handlers. Removing nodes, the
/// head among them, leaves a chain whose default path is the model's for as long as any node is left.
@Suite("Responder trees against a model")
struct TreeModelTests {
    /// The names from node `entry` up through its parents to a root: the path a command nobody takes climbs.
    static func climb(_ parent: [Int?], from entry: Int) -> [String] {
        var path: [String] = []
        var node: Int? = entry
        while let current = node {
            path.append("N\(current)")
            node = parent[current]
        }
        return path
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func commandsClimbFromAnyEntryToTheirTaker(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...12, using: &random)
        var parent: [Int?] = []
        let chain = try Chain<String, String>("tree-\(seed)")
        for index in 0..<count {
            // Each node forwards to an earlier one (or is a root).
            let up: Int? = index == 0 || random.chance(0.15) ? nil : Int.random(in: 0..<index, using: &random)
            parent.append(up)
            let name = "N\(index)"
            try chain.add(
                Handler(name, canHandle: { $0 == name }) { $0 == name ? .accept(name) : .pass },
                next: up.map { "N\($0)" }
            )
        }
        for _ in 0..<20 {
            let entry = Int.random(in: 0..<count, using: &random)
            let upward = Self.climb(parent, from: entry)
            let target =
                random.chance(0.7) ? random.pick(upward) : random.pick((0..<count).map { "N\($0)" } + ["nobody"])
            let expected = upward.contains(target) ? Array(upward.prefix { $0 != target }) + [target] : upward
            let traces = try captureTraces { _ = try chain.send(target, from: "N\(entry)") }
            #expect(traces.first?.path == expected, "seed \(seed): \(target) from N\(entry)")
            #expect(
                traces.first?.outcome == (upward.contains(target) ? .accepted(by: target) : .fellOffTheEnd),
                "seed \(seed)"
            )
            let dryRun = try chain.whoWouldHandle(target, from: "N\(entry)")
            #expect(
                dryRun.path == expected && dryRun.handler == (upward.contains(target) ? target : nil),
                "seed \(seed): dry run"
            )
        }
        let error = try #require(throws: ChainError.self) { try chain.send("x", from: "Ghost") }
        #expect(error.code == .unknownHandler && error.message.contains("N0"), "seed \(seed): \(error)")
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func removingNodesKeepsADefaultPathWhileAnyNodeIsLeft(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...10, using: &random)
        let chain = try Chain<String, String>("pruned-\(seed)")
        // The model: the nodes in the order they came, where each forwards, and the head.
        var order: [String] = []
        var next: [String: String] = [:]
        for index in 0..<count {
            let name = "N\(index)"
            // Each node forwards to an earlier one or nowhere: a forest whose roots end their paths.
            let up = index == 0 || random.chance(0.3) ? nil : order[Int.random(in: 0..<index, using: &random)]
            try chain.add(Handler(name, canHandle: { $0 == name }) { $0 == name ? .accept(name) : .pass }, next: up)
            order.append(name)
            next[name] = up
        }
        var head: String? = order.first
        while !order.isEmpty {
            let gone = random.pick(order)
            try chain.remove(gone)
            order.removeAll { $0 == gone }
            for name in order where next[name] == gone { next[name] = next[gone] }
            if head == gone {
                let targets = Set(order.compactMap { next[$0] })
                head = next[gone] ?? order.first { !targets.contains($0) } ?? order.first
            }
            next[gone] = nil
            var expected: [String] = []
            var node = head
            while let current = node {
                expected.append(current)
                node = next[current]
            }
            #expect(chain.path() == expected, "seed \(seed): after removing \(gone)")
            guard !order.isEmpty else { break }
            let traces = try captureTraces { _ = try chain.send("nobody") }
            #expect(
                traces.first?.path == expected && traces.first?.outcome == .fellOffTheEnd,
                "seed \(seed): after removing \(gone)"
            )
            #expect(try chain.whoWouldHandle("nobody").path == expected, "seed \(seed): dry run after removing \(gone)")
        }
    }
}
