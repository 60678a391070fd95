import ChainTraceTestSupport
import Testing

@testable import ChainTraceGraphviz

/// A graph inferred from a log keeps each registry's members together, where the first of them was met — the
/// registry, then its members in the order they came. Generated handler lists (unique names, registries met
/// before, among and after their members) against the plain reference that searches what it placed so far.
@Suite("Registries grouped in inferred graphs")
struct RegistryGroupingTests {
    static func reference(_ handlers: [ChainGraph.Handler]) -> [ChainGraph.Handler] {
        var result: [ChainGraph.Handler] = []
        for handler in handlers where !result.contains(where: { $0.name == handler.name }) {
            if let registry = handler.registry {
                let group = handlers.filter { $0.registry == registry && !result.contains($0) }
                result += group.filter(\.isRegistry) + group.filter { !$0.isRegistry }
            } else {
                result.append(handler)
            }
        }
        return result
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func groupingEqualsTheReference(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let registries = (0..<Int.random(in: 0...3, using: &random)).map { "R\($0)" }
        var handlers: [ChainGraph.Handler] = registries.filter { _ in random.chance(0.7) }.map {
            ChainGraph.Handler(name: $0, registry: $0, isRegistry: true)
        }
        for index in 0..<Int.random(in: 0...25, using: &random) {
            let registry = registries.isEmpty || random.chance(0.4) ? nil : random.pick(registries)
            handlers.append(ChainGraph.Handler(name: "H\(index)", registry: registry))
        }
        handlers.shuffle(using: &random)
        #expect(ChainGraph.groupingRegistries(handlers) == Self.reference(handlers), "seed \(seed)")
    }
}
