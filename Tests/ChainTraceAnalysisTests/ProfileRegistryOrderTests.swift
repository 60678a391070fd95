import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// A profile lists its handlers in chain order — each after the handlers traces went from straight to it, else in
/// the order first met (`ChainOrderModel`) — and each registry's members right after their registry, also a member
/// first met after every other handler (one registered while the chain ran). Checked on generated traces of chains
/// with registries (some nested in registries), added in generated orders: the same handlers; handlers outside
/// registries, and members of one registry, in the model's order; each registry followed by all its members and
/// nothing else until they end.
@Suite("A profile lists a registry's members after it")
struct ProfileRegistryOrderTests {
    /// A generated chain: top-level handlers, some of them registries, whose members may be registries too.
    struct Shape {
        /// Each handler's registry (`nil` at the top).
        var registryOf: [String: String] = [:]
        var topLevel: [String] = []
        var membersOf: [String: [String]] = [:]

        init(_ random: inout SeededGenerator) {
            var count = 0
            func name() -> String {
                count += 1
                return "H\(count)"
            }
            func members(of registry: String, depth: Int) {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let member = name()
                    registryOf[member] = registry
                    membersOf[registry, default: []].append(member)
                    if depth < 2, random.chance(0.2) { members(of: member, depth: depth + 1) }
                }
            }
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let handler = name()
                topLevel.append(handler)
                if random.chance(0.4) { members(of: handler, depth: 1) }
            }
        }

        /// A path through the chain: some top-level handlers in order, each registry's walk through some of its
        /// members, as a `Chain` records it (the registry's hop first).
        func path(_ random: inout SeededGenerator) -> [String] {
            func visit(_ handler: String) -> [String] {
                var names = [handler]
                for member in membersOf[handler] ?? [] where random.chance(0.6) { names += visit(member) }
                return names
            }
            let start = Int.random(in: 0..<topLevel.count, using: &random)
            return topLevel[start...].filter { _ in random.chance(0.7) }.flatMap(visit)
        }
    }

    static func trace(_ names: [String], shape: Shape, id: Int) -> Trace {
        let hops = names.enumerated().map { position, name in
            Hop(
                handler: name,
                position: position,
                decision: .passed,
                registry: shape.registryOf[name],
                startOffset: 0,
                inclusiveDuration: 10,
                selfDuration: 10
            )
        }
        return Trace(
            id: UInt64(id),
            commandKind: "K",
            entry: names.first ?? "",
            chain: "c",
            hops: hops,
            outcome: .fellOffTheEnd,
            duration: 10
        )
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func membersFollowTheirRegistry(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let shape = Shape(&random)
        var profile = ChainProfile()
        var declared: [String] = []
        // Now and then the chain's handlers declared first, in chain order, as a replay does.
        if random.chance(0.3) {
            for handler in shape.topLevel {
                profile.declare(handler)
                declared.append(handler)
            }
        }
        var paths: [[String]] = []
        for id in 0..<Int.random(in: 1...30, using: &random) {
            let path = shape.path(&random)
            guard !path.isEmpty else { continue }
            profile.add(Self.trace(path, shape: shape, id: id))
            paths.append(path)
        }
        let met = ChainOrderModel.order(paths: paths, declared: declared)
        let listed = profile.handlers.map(\.handler)
        #expect(listed.sorted() == met.sorted(), "seed \(seed)")
        // Outside registries, and within one, the chain's order.
        #expect(
            listed.filter { shape.registryOf[$0] == nil } == met.filter { shape.registryOf[$0] == nil },
            "seed \(seed)"
        )
        for registry in Set(shape.registryOf.values) {
            #expect(
                listed.filter { shape.registryOf[$0] == registry } == met.filter { shape.registryOf[$0] == registry },
                "seed \(seed): \(registry)"
            )
        }
        // After a registry, its members (and theirs) and nothing else, until they end.
        func isInside(_ name: String, _ registry: String) -> Bool {
            var current = shape.registryOf[name]
            while let enclosing = current {
                if enclosing == registry { return true }
                current = shape.registryOf[enclosing]
            }
            return false
        }
        for (index, registry) in listed.enumerated() {
            let inside = listed.filter { isInside($0, registry) }.count
            let following = listed[(index + 1)...].prefix(inside)
            #expect(
                following.allSatisfy { isInside($0, registry) },
                "seed \(seed): after \(registry), \(Array(following)) in \(listed)"
            )
        }
    }
}
