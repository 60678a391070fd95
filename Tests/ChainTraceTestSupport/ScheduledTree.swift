import ChainTrace

/// A generated tree of handlers whose children run in turn or at once, and hand-built traces of it as the recorder
/// would make them under different schedules: the hops that run at once start in a random order within a few
/// nanoseconds and overlap; the others follow each other. Names (`N1`, `N2`, …) are unique in a tree.
public struct ScheduledTree: Sendable {
    public var name: String
    public var children: [ScheduledTree]
    /// Whether its children run at once (a task group) rather than one after the other.
    public var atOnce: Bool
    /// For a leaf: accepted, passed, continued or failed. A handler with children forwarded: passed.
    public var decision: Decision

    public init(name: String, children: [ScheduledTree], atOnce: Bool, decision: Decision) {
        self.name = name
        self.children = children
        self.atOnce = atOnce
        self.decision = decision
    }

    /// A random tree of up to four levels, at least one child under the root; each node runs its children at once
    /// with probability `atOnce`.
    public static func random(_ random: inout SeededGenerator, atOnce: Double) -> ScheduledTree {
        var counter = 0
        return grow(&random, depth: 0, counter: &counter, atOnce: atOnce)
    }

    private static func grow(_ random: inout SeededGenerator, depth: Int, counter: inout Int, atOnce: Double)
        -> ScheduledTree
    {
        counter += 1
        let name = "N\(counter)"
        let count = depth >= 3 ? 0 : Int.random(in: depth == 0 ? 1...3 : 0...3, using: &random)
        let children = (0..<count).map { _ in grow(&random, depth: depth + 1, counter: &counter, atOnce: atOnce) }
        let decision: Decision =
            !children.isEmpty ? .passed : random.pick([.accepted, .accepted, .passed, .continued, .failed])
        return ScheduledTree(name: name, children: children, atOnce: random.chance(atOnce), decision: decision)
    }

    /// Every node, parents first, children in their order.
    public func visit(_ body: (ScheduledTree) -> Void) {
        body(self)
        for child in children { child.visit(body) }
    }

    /// The names, parents first, children in their order: an order a run could have recorded.
    public var preorder: [String] {
        var names: [String] = []
        visit { names.append($0.name) }
        return names
    }

    /// How many nodes it has.
    public var count: Int { preorder.count }

    /// This tree with `edit` applied to its `target`-th node, parents first.
    public func editing(_ target: Int, _ edit: (inout ScheduledTree) -> Void) -> ScheduledTree {
        var counter = 0
        return editing(target, &counter, edit)
    }

    private func editing(_ target: Int, _ counter: inout Int, _ edit: (inout ScheduledTree) -> Void) -> ScheduledTree {
        var copy = self
        if counter == target { edit(&copy) }
        counter += 1
        copy.children = copy.children.map { $0.editing(target, &counter, edit) }
        return copy
    }

    /// Whether the nodes named `a` and `b` run at once: neither is inside the other, and under the node both are
    /// inside, the two children they are under are children of a node that runs its children at once (and are two).
    public func runAtOnce(_ a: String, _ b: String) -> Bool {
        guard let pathToA = path(to: a), let pathToB = path(to: b) else { return false }
        var common = 0
        while common < pathToA.count, common < pathToB.count, pathToA[common].name == pathToB[common].name {
            common += 1
        }
        guard common < pathToA.count, common < pathToB.count, common > 0 else { return false }
        return pathToA[common - 1].atOnce
    }

    /// The nodes from this one down to the one named `name`.
    private func path(to name: String) -> [ScheduledTree]? {
        if self.name == name { return [self] }
        for child in children {
            if let below = child.path(to: name) { return [self] + below }
        }
        return nil
    }

    /// One run of the tree, as the recorder would trace it: hops in opening order (a node's whole subtree after
    /// it), times from a random schedule, and the outcome by the recorder's rule — the first hop to fail, else the
    /// last to open of those that accepted.
    public func run(_ random: inout SeededGenerator, id: String = "c") -> Trace {
        var hops: [Hop] = []
        var failures: [(end: UInt64, name: String)] = []
        @discardableResult
        func emit(_ node: ScheduledTree, parent: Int?, start: UInt64) -> UInt64 {
            let index = hops.count
            hops.append(Hop(handler: node.name, position: index, decision: node.decision))
            var end: UInt64
            if node.children.isEmpty {
                end = start + 20 + UInt64.random(in: 0...50, using: &random)
            } else if node.atOnce {
                // Each starts within 10 ns of the others and lasts at least 20: they overlap.
                var latest = start
                for child in node.children.shuffled(using: &random) {
                    latest = max(
                        latest,
                        emit(child, parent: index, start: start + 1 + UInt64.random(in: 0...9, using: &random))
                    )
                }
                end = latest + 1 + UInt64.random(in: 0...5, using: &random)
            } else {
                var next = start + 1
                for child in node.children {
                    next = emit(child, parent: index, start: next) + 1 + UInt64.random(in: 0...5, using: &random)
                }
                end = next
            }
            hops[index].parent = parent
            hops[index].startOffset = start
            hops[index].inclusiveDuration = end - start
            if node.decision == .failed {
                hops[index].reason = "error in \(node.name)"
                failures.append((end, node.name))
            }
            return end
        }
        emit(self, parent: nil, start: 0)
        let outcome: Outcome
        if let first = failures.min(by: { $0.end < $1.end }) {
            outcome = .failed(at: first.name, error: "error in \(first.name)")
        } else if let last = hops.last(where: { $0.decision == .accepted }) {
            outcome = .accepted(by: last.handler)
        } else {
            outcome = .fellOffTheEnd
        }
        return Trace(
            id: 0,
            commandKind: "K",
            commandID: id,
            entry: name,
            chain: "c",
            hops: hops,
            outcome: outcome,
            duration: hops[0].inclusiveDuration
        )
    }
}
