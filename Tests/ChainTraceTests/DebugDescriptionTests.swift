import ChainTrace
import ChainTraceTestSupport
import Testing

/// A chain's `debugDescription` — what `po chain` shows while debugging — for generated chains: its name and
/// version, then one line per node in the order added, marking the head, saying handler, observer or registry
/// (members with their weights, in the order they are asked) and where each forwards.
@Suite("Chains describe themselves")
struct DebugDescriptionTests {
    @Test(arguments: SeededGenerator.seeds(40))
    func everyNodeIsDescribedWithItsKindAndLink(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chain = try Chain<Int, Int>("described-\(seed)")
        var expected: [(name: String, kind: String)] = []
        var members: [String: [(name: String, weight: Int, age: Int)]] = [:]
        for index in 0..<Int.random(in: 1...7, using: &random) {
            let name = "N\(index)"
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                try chain.append(Handler(name) { _ in .pass })
                expected.append((name, "handler"))
            case 1:
                try chain.append(.observer(name) { _ in })
                expected.append((name, "observer"))
            default:
                let registry = try chain.addRegistry(name)
                var list: [(name: String, weight: Int, age: Int)] = []
                for member in 0..<Int.random(in: 0...3, using: &random) {
                    let weight = Int.random(in: 0...2, using: &random)
                    try registry.register(Handler("\(name)m\(member)") { _ in .pass }, weight: weight)
                    list.append(("\(name)m\(member)", weight, member))
                }
                members[name] = list
                expected.append((name, "registry"))
            }
        }
        let lines = chain.debugDescription.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "Chain 'described-\(seed)' version \(chain.version)",
            "seed \(seed): \(lines.first ?? "")"
        )
        #expect(lines.count == expected.count + 1, "seed \(seed)")
        for (index, (line, node)) in zip(lines.dropFirst(), expected).enumerated() {
            let next = index + 1 < expected.count ? expected[index + 1].name : "end"
            var kind = node.kind
            if kind == "registry" {
                let ordered = (members[node.name] ?? []).sorted { ($0.weight, $0.age) > ($1.weight, $1.age) }
                kind = "registry [\(ordered.map { "\($0.name)@\($0.weight)" }.joined(separator: ", "))]"
            }
            let head = index == 0 ? " (head)" : ""
            #expect(line == "  \(node.name)\(head): \(kind) → \(next)", "seed \(seed): \(line)")
        }
    }
}
