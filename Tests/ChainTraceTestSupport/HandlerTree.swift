import ChainTrace

/// A generated tree of instrumented handlers (`traceHop`): each calls its children — synchronously, or in an async
/// chain one after the other or at once in a task group — after waiting a little. Names (`N1`, `N2`, …) are unique
/// in a tree, so a trace's hops can be matched to its nodes by name.
public final class HandlerTree: Sendable {
    public let name: String
    public let children: [HandlerTree]
    /// Whether the async run starts its children at once (child tasks) rather than awaiting them in turn.
    public let atOnce: Bool
    public let wait: Duration
    public let chain: String

    public init(name: String, children: [HandlerTree], atOnce: Bool, wait: Duration, chain: String) {
        self.name = name
        self.children = children
        self.atOnce = atOnce
        self.wait = wait
        self.chain = chain
    }

    /// Calls its children in turn, synchronously: each nests in it. Returns how many hops ran.
    public func runSynchronously() -> Int {
        traceHop(name, command: 1, chain: chain) { () -> Int in
            children.reduce(1) { $0 + $1.runSynchronously() }
        }
    }

    /// Awaits its children in turn, or runs them at once in a task group. Returns how many hops ran.
    ///
    /// Children run at once meet inside their hops before any goes on (each waits, its hop open, until all have
    /// started theirs), so their hops overlap in time however late a loaded scheduler starts one of them: what the
    /// trace model calls "ran at once" is then what the tree says, not what the machine's load made of it.
    public func run() async -> Int {
        await run(meeting: nil)
    }

    private func run(meeting: SiblingMeeting?) async -> Int {
        await traceHop(name, command: 1, chain: chain) { () async -> Int in
            await meeting?.arriveAndWaitForAll()
            if wait > .zero { try? await Task.sleep(for: wait) }
            if atOnce {
                let meeting = children.count > 1 ? SiblingMeeting(expected: children.count) : nil
                return await withTaskGroup(of: Int.self) { group in
                    for child in children { group.addTask { await child.run(meeting: meeting) } }
                    return await group.reduce(1, +)
                }
            }
            var total = 1
            for child in children { total += await child.run(meeting: nil) }
            return total
        }
    }

    /// A random tree: up to three children a node, none below `leafDepth`; each node runs its children at once
    /// with probability `atOnce`, after waiting up to `maximumWait`.
    public static func random(
        _ random: inout SeededGenerator,
        chain: String,
        leafDepth: Int,
        atOnce: Double,
        maximumWait: Duration
    ) -> HandlerTree {
        var counter = 0
        return grow(
            &random,
            depth: 0,
            counter: &counter,
            chain: chain,
            leafDepth: leafDepth,
            atOnce: atOnce,
            maximumWait: maximumWait
        )
    }

    /// ``random(_:chain:leafDepth:atOnce:maximumWait:)`` from a generator seeded with `seed`.
    public static func random(
        seed: UInt64,
        chain: String,
        leafDepth: Int,
        atOnce: Double,
        maximumWait: Duration
    ) -> HandlerTree {
        var generator = SeededGenerator(seed: seed)
        return random(&generator, chain: chain, leafDepth: leafDepth, atOnce: atOnce, maximumWait: maximumWait)
    }

    private static func grow(
        _ random: inout SeededGenerator,
        depth: Int,
        counter: inout Int,
        chain: String,
        leafDepth: Int,
        atOnce: Double,
        maximumWait: Duration
    ) -> HandlerTree {
        counter += 1
        let name = "N\(counter)"
        let count = depth >= leafDepth ? 0 : Int.random(in: 0...3, using: &random)
        let children = (0..<count).map { _ in
            grow(
                &random,
                depth: depth + 1,
                counter: &counter,
                chain: chain,
                leafDepth: leafDepth,
                atOnce: atOnce,
                maximumWait: maximumWait
            )
        }
        let microseconds = Int(maximumWait / .microseconds(1))
        return HandlerTree(
            name: name,
            children: children,
            atOnce: random.chance(atOnce),
            wait: .microseconds(Int.random(in: 0...microseconds, using: &random)),
            chain: chain
        )
    }

    /// The same tree with every node waiting `wait` before it calls its children (children run at once overlap
    /// by at least that long).
    public func waiting(_ wait: Duration) -> HandlerTree {
        HandlerTree(name: name, children: children.map { $0.waiting(wait) }, atOnce: atOnce, wait: wait, chain: chain)
    }

    /// Calls `body` with this node and every node below it, parents first.
    public func visit(_ body: (HandlerTree) -> Void) {
        body(self)
        for child in children { child.visit(body) }
    }

    /// Each node's name and its parent's name (`nil` for this node, the root).
    public var parents: [String: String?] {
        var result: [String: String?] = [:]
        visit { node in
            if result[node.name] == nil { result.updateValue(nil, forKey: node.name) }
            for child in node.children { result.updateValue(node.name, forKey: child.name) }
        }
        return result
    }
}

/// Siblings started at once that wait for each other: the last to arrive lets all go on.
private actor SiblingMeeting {
    private let expected: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(expected: Int) {
        self.expected = expected
    }

    func arriveAndWaitForAll() async {
        arrived += 1
        if arrived >= expected {
            for continuation in waiting { continuation.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
