import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Model-based: random sequences of edits — append, insert at every position, remove, replace, and registering
/// and deregistering late responders with random weights and ties — applied to a chain and to a plain list. After
/// every edit the chain's version has gone up by one, and a command for each handler takes exactly the path the
/// list says (registry members in weight order, newest first among equals), in the real run and the dry run.
@Suite("Chain edits against a model")
struct ChainEditModelTests {
    /// The model: the chain's nodes in order; a registry holds its members, each with its weight and when it came.
    enum Node: Equatable {
        case handler(String)
        case registry(String, members: [(name: String, weight: Int, age: Int)])

        var name: String {
            switch self {
            case .handler(let name), .registry(let name, _): name
            }
        }

        static func == (left: Node, right: Node) -> Bool { left.name == right.name }
    }

    /// The names a command that nobody takes visits, in order.
    static func fullPath(_ model: [Node]) -> [String] {
        model.flatMap { node -> [String] in
            switch node {
            case .handler(let name): [name]
            case .registry(let name, let members):
                [name] + members.sorted { ($0.weight, $0.age) > ($1.weight, $1.age) }.map(\.name)
            }
        }
    }

    static func handler(_ name: String) -> Handler<String, String> {
        Handler(name, canHandle: { $0 == name }) { $0 == name ? .accept(name) : .pass }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func everyEditLeavesThePathsTheModelSays(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chain = try Chain<String, String>("edited")
        var model: [Node] = []
        var fresh = 0
        func newName() -> String {
            fresh += 1
            return "N\(fresh)"
        }
        for step in 0..<40 {
            let before = chain.version
            let handlers = model.compactMap { if case .handler(let name) = $0 { name } else { nil } }
            let registries = model.indices.filter { if case .registry = model[$0] { true } else { false } }
            switch Int.random(in: 0...8, using: &random) {
            case 0:
                let name = newName()
                try chain.append(Self.handler(name))
                model.append(.handler(name))
            case 1:
                let name = newName()
                try chain.insert(Self.handler(name), at: .first)
                model.insert(.handler(name), at: 0)
            case 2 where !model.isEmpty:
                let target = Int.random(in: 0..<model.count, using: &random)
                let name = newName()
                let after = random.chance(0.5)
                try chain.insert(
                    Self.handler(name),
                    at: after ? .after(model[target].name) : .before(model[target].name)
                )
                model.insert(.handler(name), at: after ? target + 1 : target)
            case 3 where !model.isEmpty:
                let target = Int.random(in: 0..<model.count, using: &random)
                try chain.remove(model[target].name)
                model.remove(at: target)
            case 4 where !handlers.isEmpty:
                let old = random.pick(handlers)
                let name = newName()
                try chain.replace(old, with: Self.handler(name))
                model[model.firstIndex { $0.name == old }!] = .handler(name)
            case 5:
                let name = newName()
                _ = try chain.addRegistry(name, at: .last)
                model.append(.registry(name, members: []))
            case 6 where !registries.isEmpty, 7 where !registries.isEmpty:
                let index = random.pick(registries)
                guard case .registry(let name, var members) = model[index] else { continue }
                let member = newName()
                let weight = Int.random(in: 0...2, using: &random)  // few weights: many ties
                try chain.registry(name).register(Self.handler(member), weight: weight)
                members.append((member, weight, step))
                model[index] = .registry(name, members: members)
            case 8 where !registries.isEmpty:
                let index = random.pick(registries)
                guard case .registry(let name, var members) = model[index], !members.isEmpty else { continue }
                let gone = members.remove(at: Int.random(in: 0..<members.count, using: &random)).name
                #expect(try chain.registry(name).deregister(gone), "seed \(seed)")
                model[index] = .registry(name, members: members)
            default:
                continue
            }
            #expect(chain.version == before + 1, "seed \(seed), step \(step): version \(before) → \(chain.version)")
            try check(chain, against: model, seed: seed, step: step)
        }
    }

    func check(_ chain: Chain<String, String>, against model: [Node], seed: UInt64, step: Int) throws {
        let full = Self.fullPath(model)
        // Nothing to send: no capture either. A capture that takes no trace reports the traces other tests' threads
        // record outside every recorder scope meanwhile (DroppedChainTests' workers do), as it should for a test
        // that expected some; this one expects none.
        guard !full.isEmpty else { return }
        let registryNames = Set(model.compactMap { if case .registry(let name, _) = $0 { name } else { nil } })
        let traces = try captureTraces {
            for name in full where !registryNames.contains(name) { _ = try chain.send(name) }
            if !full.isEmpty { _ = try chain.send("nobody") }
        }
        var index = 0
        for name in full where !registryNames.contains(name) {
            let expected = Array(full.prefix { $0 != name }) + [name]
            #expect(
                traces[index].path == expected,
                "seed \(seed), step \(step): \(name) went \(traces[index].path), model \(expected)"
            )
            #expect(traces[index].outcome == .accepted(by: name), "seed \(seed), step \(step)")
            #expect(try chain.whoWouldHandle(name).path == expected, "seed \(seed), step \(step): dry run for \(name)")
            index += 1
        }
        if !full.isEmpty {
            #expect(
                traces[index].path == full && traces[index].outcome == .fellOffTheEnd,
                "seed \(seed), step \(step): \(traces[index].path) vs \(full)"
            )
        }
    }
}
