import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// The link a hop's command came along — what profiles count, diagrams draw and chain order follows — on generated
/// traces whose builder knows who handed each hop its command: a handler's calls (one after another, or fanned out
/// to workers whose hops interleave), a registry asking its members in order and then forwarding, a chain walking
/// its handlers at the top. Checked against `Trace.hopSources` and a profile's edges. Read from the order of hops
/// alone, a fan-out's workers looked like a chain of one another.
@Suite("Where a hop's command came from")
struct HopSourceTests {
    /// A hop being built: its handler, the hop it ran inside (an index in the list), its registry, and where its
    /// command came from — a hop, or `nil` for "the hop just before it", known once the order is final.
    struct Node {
        var handler: String
        var parent: Int?
        var registry: String?
        var source: Int??
    }

    /// Builds hops into `nodes` (indices are final positions, except inside a fan-out, which interleaves its
    /// workers' hops afterwards and renumbers them).
    struct Builder {
        var random: SeededGenerator
        var names = 0

        mutating func name() -> String {
            names += 1
            return "H\(names)"
        }

        /// The hops under a hop at `parent` that it called: returns them in order (indices relative to `offset`,
        /// the position of the first).
        mutating func calls(under parent: Int, offset: Int, depth: Int, concurrent: Bool) -> [Node] {
            guard depth < 4 else { return [] }
            var nodes: [Node] = []
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                // Calls one after another: each handed the command by the caller.
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    nodes += subtree(
                        parent: parent,
                        source: parent,
                        offset: offset + nodes.count,
                        depth: depth + 1,
                        concurrent: concurrent
                    )
                }
            case 1:
                // Fans out: each worker's hops, built on their own, interleaved.
                var workers: [[Node]] = []
                for _ in 0..<Int.random(in: 2...4, using: &random) {
                    workers.append(
                        subtree(parent: parent, source: parent, offset: 0, depth: depth + 1, concurrent: true)
                    )
                }
                nodes = Self.interleave(workers, offset: offset, random: &random)
            case 2 where !concurrent:
                // A registry: this hop asks its members in order, each after the one before; then maybe forwards,
                // from its last member's hops (as a chain walking on past a registry does).
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    var member = subtree(
                        parent: parent,
                        source: nil,
                        offset: offset + nodes.count,
                        depth: depth + 1,
                        concurrent: false
                    )
                    member[0].registry = "registry of \(parent)"
                    nodes += member
                }
                if random.chance(0.5) {
                    nodes += subtree(
                        parent: parent,
                        source: nil,
                        offset: offset + nodes.count,
                        depth: depth + 1,
                        concurrent: false
                    )
                }
            default:
                break
            }
            return nodes
        }

        /// A hop inside `parent`, handed its command by `source` (`nil`: the hop before it), and the hops it called.
        mutating func subtree(parent: Int?, source: Int??, offset: Int, depth: Int, concurrent: Bool) -> [Node] {
            let root = Node(handler: name(), parent: parent, registry: nil, source: source)
            return [root] + calls(under: offset, offset: offset + 1, depth: depth, concurrent: concurrent)
        }

        /// Workers' hops (each list numbered from 0) in one random order that keeps each worker's own, numbered
        /// from `offset`.
        static func interleave(_ workers: [[Node]], offset: Int, random: inout SeededGenerator) -> [Node] {
            var next = Array(repeating: 0, count: workers.count)
            var positions = workers.map { Array(repeating: 0, count: $0.count) }
            var order: [(worker: Int, index: Int)] = []
            while order.count < workers.reduce(0, { $0 + $1.count }) {
                let worker = random.pick(workers.indices.filter { next[$0] < workers[$0].count })
                positions[worker][next[worker]] = offset + order.count
                order.append((worker, next[worker]))
                next[worker] += 1
            }
            return order.map { worker, index in
                var node = workers[worker][index]
                // A worker's first hop refers to the caller, as it is; the rest to the worker's own hops, numbered
                // from 0 when it was built.
                guard index > 0 else { return node }
                if let parent = node.parent { node.parent = positions[worker][parent] }
                if case .some(.some(let source)) = node.source { node.source = .some(positions[worker][source]) }
                return node
            }
        }
    }

    /// A trace of a chain walked at the top, each handler maybe calling others, and the source of each hop.
    static func trace(_ random: inout SeededGenerator) -> (trace: Trace, sources: [Int]) {
        var builder = Builder(random: random)
        var nodes: [Node] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            nodes += builder.subtree(parent: nil, source: nil, offset: nodes.count, depth: 0, concurrent: false)
        }
        random = builder.random
        // A member's registry is its parent's name; "the hop before it" resolved now that the order is final.
        let sources = nodes.indices.map { index -> Int in
            if case .some(.some(let source)) = nodes[index].source { return source }
            return index - 1
        }
        let hops = nodes.enumerated().map { index, node in
            Hop(
                handler: node.handler,
                position: index,
                decision: .passed,
                registry: node.registry.map { _ in nodes[node.parent!].handler },
                parent: node.parent,
                startOffset: UInt64(index),
                inclusiveDuration: 1,
                selfDuration: 1
            )
        }
        let trace = Trace(
            id: 1,
            commandKind: "K",
            entry: hops[0].handler,
            chain: "c",
            hops: hops,
            outcome: .fellOffTheEnd,
            duration: UInt64(hops.count)
        )
        return (trace, sources)
    }

    @Test(arguments: SeededGenerator.seeds(300))
    func eachHopComesFromTheHopThatHandedItTheCommand(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let (trace, sources) = Self.trace(&random)
        #expect(
            trace.hopSources == sources,
            "seed \(seed): \(trace.hops.map { "\($0.handler)<\($0.parent.map(String.init) ?? "-")\($0.registry == nil ? "" : "m")" })"
        )
        var edges: [ChainProfile.Edge: Int] = [:]
        for (index, source) in sources.enumerated() {
            edges[
                ChainProfile.Edge(from: source < 0 ? nil : trace.hops[source].handler, to: trace.hops[index].handler),
                default: 0
            ] += 1
        }
        #expect(ChainProfile([trace]).edges == edges, "seed \(seed)")
    }
}
