import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// A profile lists handlers in the chain's order as its traces show it, not the order the traces happened to meet
/// them: a stats table of a tree listed the entry `Cell` after `AppDelegate` when the first command came in at
/// `Toolbar`. Generated traces over generated chains — trees with several entries, handlers inserted at the front
/// later, loops — against `ChainOrderModel`; where the links have no loop, every link goes forward in the list.
@Suite("A profile lists handlers in chain order")
struct ProfileChainOrderTests {
    static func trace(_ path: [String], id: Int) -> Trace {
        let hops = path.enumerated().map { position, name in
            Hop(
                handler: name,
                position: position,
                decision: position == path.count - 1 ? .accepted : .passed,
                inclusiveDuration: 1,
                selfDuration: 1
            )
        }
        return Trace(
            id: UInt64(id),
            commandKind: "K",
            entry: path[0],
            chain: "c",
            hops: hops,
            outcome: .accepted(by: path.last!),
            duration: UInt64(hops.count)
        )
    }

    @Test(arguments: SeededGenerator.seeds(300))
    func handlersFollowTheLinksTheTracesShow(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...12, using: &random)
        let names = (0..<count).map { "H\($0)" }
        // Each handler forwards to one later handler, or (now and then) an earlier one: a loop.
        let next: [Int?] = (0..<count).map { index in
            if random.chance(0.1) { return Int.random(in: 0..<count, using: &random) }
            return index + 1 < count && random.chance(0.8) ? Int.random(in: (index + 1)..<count, using: &random) : nil
        }
        var paths: [[String]] = []
        for _ in 0..<Int.random(in: 1...25, using: &random) {
            var index = Int.random(in: 0..<count, using: &random)
            var path = [names[index]]
            while let following = next[index], path.count < 2 * count, random.chance(0.85) {
                index = following
                path.append(names[index])
            }
            paths.append(path)
        }
        var profile = ChainProfile()
        let declared =
            random.chance(0.3)
            ? Array(names.prefix(Int.random(in: 0...count, using: &random)).shuffled(using: &random)) : []
        for name in declared { profile.declare(name) }
        for (id, path) in paths.enumerated() { profile.add(Self.trace(path, id: id)) }

        let listed = profile.handlers.map(\.handler)
        #expect(listed == ChainOrderModel.order(paths: paths, declared: declared), "seed \(seed): \(paths)")
        let links = Set(paths.flatMap { path in zip(path, path.dropFirst()).filter { $0 != $1 }.map { [$0, $1] } })
        let hasLoop = links.contains { link in Self.reaches(from: link[1], to: link[0], links: links) }
        if !hasLoop {
            for link in links {
                #expect(
                    listed.firstIndex(of: link[0])! < listed.firstIndex(of: link[1])!,
                    "seed \(seed): \(link) in \(listed)"
                )
            }
        }
    }

    static func reaches(from start: String, to goal: String, links: Set<[String]>) -> Bool {
        var seen: Set<String> = [start]
        var frontier = [start]
        while let current = frontier.popLast() {
            if current == goal { return true }
            for link in links where link[0] == current && seen.insert(link[1]).inserted { frontier.append(link[1]) }
        }
        return false
    }
}
