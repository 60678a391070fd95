/// Which hops of a trace ran at once: the hops of a stage that fanned out (`async let`, a task group), whose order
/// in the trace, and which of them the outcome names, the scheduler decided. What comparisons of runs and test
/// assertions leave to it.
///
/// Hops are siblings when they have the same recorded parent (``Hop/parent``; the top of the trace for hops with
/// none). Siblings ran at once when their times overlap: each one that starts before the siblings started before it
/// have all ended (by more than a nanosecond: times converted from ticks may round one up at an edge) joins their
/// group. Two hops ran at once when neither is inside the other and the siblings they are in (or are), under the
/// hop both are inside, are in one group.
///
/// `nil` for a trace in which no two siblings overlap — nearly all: a `Chain`'s hops run one after the other, a
/// handler that calls the next has one child — and for a trace with no recorded parent (a log from before they
/// were recorded), whose nesting is not known: hops inside others would look like siblings that overlap.
package struct HopsAtOnce: Sendable {
    /// The trace's hops.
    package let hops: [CompactHop]
    /// Each hop's parent; ``count`` for the top.
    package let parents: [Int]
    /// Each node's children (the top is node ``count``), ordered by start, as `childStarts[node]..<childStarts[node+1]`
    /// of `children`.
    private let children: [Int]
    private let childStarts: [Int]
    /// Each hop's group among its siblings: equal for siblings that ran at once.
    private let groupOf: [Int]

    /// The number of hops, and the node number of the top.
    package var count: Int { hops.count }

    /// The most hops a trace may have for this (it keeps a few arrays of that size); a larger trace gives `nil`.
    package static var maximumHops: Int { 4096 }

    /// Which hops of `trace` ran at once, or `nil` when no two did.
    package init?(_ trace: Trace) {
        // Told without making anything for nearly every trace.
        guard trace.mayHaveHopsAtOnce else { return nil }
        var hops: [CompactHop] = []
        trace.forEachCompactHop { hops.append($0) }
        let count = hops.count
        guard count >= 2, count <= Self.maximumHops else { return nil }
        // A hop's parent, if it is an earlier hop (a reader keeps no other); `count` stands for the top.
        let parents = hops.indices.map { index in
            let parent = hops[index].parent
            return parent >= 0 && parent < index ? parent : count
        }
        guard parents.contains(where: { $0 != count }) else { return nil }
        var starts = [Int](repeating: 0, count: count + 2)
        for parent in parents { starts[parent + 1] += 1 }
        for node in 0...count { starts[node + 1] += starts[node] }
        var children = [Int](repeating: 0, count: count)
        var next = starts
        for (hop, parent) in parents.enumerated() {
            children[next[parent]] = hop
            next[parent] += 1
        }
        var groupOf = [Int](repeating: 0, count: count)
        var anyAtOnce = false
        var group = 0
        for node in 0...count {
            let range = starts[node]..<starts[node + 1]
            guard !range.isEmpty else { continue }
            // Record order is opening order for a recorded trace; a hand-built one may be in any.
            children[range].sort { (hops[$0].startNanoseconds, $0) < (hops[$1].startNanoseconds, $1) }
            var groupEnd: UInt64 = 0
            var first = true
            for child in children[range] {
                let start = hops[child].startNanoseconds
                let (end, overflow) = start.addingReportingOverflow(hops[child].inclusiveNanoseconds)
                if first || start &+ 1 >= groupEnd {
                    group += 1
                    groupEnd = 0
                } else {
                    anyAtOnce = true
                }
                first = false
                groupOf[child] = group
                groupEnd = max(groupEnd, overflow ? .max : end)
            }
        }
        guard anyAtOnce else { return nil }
        self.hops = hops
        self.parents = parents
        self.children = children
        self.childStarts = starts
        self.groupOf = groupOf
    }

    /// `node`'s children by group, groups in order of their first start (the top is node ``count``).
    package func groups(of node: Int) -> [[Int]] {
        var groups: [[Int]] = []
        var last = -1
        for child in children[childStarts[node]..<childStarts[node + 1]] {
            if groupOf[child] != last {
                groups.append([])
                last = groupOf[child]
            }
            groups[groups.count - 1].append(child)
        }
        return groups
    }

    /// Whether hops `a` and `b` ran at once (see the type's description).
    package func ranAtOnce(_ a: Int, _ b: Int) -> Bool {
        let top = count
        // `a`'s ancestors, each with the child on the way down to `a`.
        var towardA: [Int: Int] = [:]
        var node = a
        while node != top {
            towardA[parents[node]] = node
            node = parents[node]
        }
        var below = b
        node = parents[b]
        while true {
            // Reached: the lowest hop `a` and `b` are both inside (the top at the latest). When the child toward
            // `a` is `below` itself, one of the two is inside the other.
            if let sideOfA = towardA[node] {
                return sideOfA != below && groupOf[sideOfA] == groupOf[below]
            }
            below = node
            node = parents[node]
        }
    }

    /// The outcomes other than the trace's own that a run with the same hops could have named: the hops that ran at
    /// once with the one it names and decided as it did — accepted, or failed (with their reasons) — since the
    /// recorder names the last hop to open that accepted, or the first to fail, and among hops that ran at once
    /// which that is the scheduler decided. Empty when the outcome's hop ran alone or the command fell off the end.
    package func interchangeableOutcomes(of trace: Trace) -> [Outcome] {
        guard let decider = trace.compactOutcomeHop, decider < count else { return [] }
        let names = trace.compactNames.names
        let failed = hops[decider].decision == .failed
        var reasons: [Int: String] = [:]
        if failed { trace.forEachReason { position, reason in reasons[position] = reason } }
        var alternatives: [Outcome] = []
        for hop in 0..<count where hop != decider && hops[hop].decision == hops[decider].decision {
            guard ranAtOnce(hop, decider) else { continue }
            let index = hops[hop].handler
            let name = index >= 0 && index < names.count ? names[index] : ""
            let outcome: Outcome = failed ? .failed(at: name, error: reasons[hop] ?? "") : .accepted(by: name)
            if !alternatives.contains(outcome) { alternatives.append(outcome) }
        }
        return alternatives
    }

    /// Whether `path` lists the trace's hops (whose names in order are `names`) in an order a run with the same hops
    /// could have recorded: the same names, and any two hops in another order than the trace's ran at once. A name
    /// that appears several times is matched occurrence by occurrence, in order.
    package func allows(_ path: [String], names: [String]) -> Bool {
        guard path.count == names.count else { return false }
        var occurrences: [String: [Int]] = [:]
        for (index, name) in names.enumerated().reversed() { occurrences[name, default: []].append(index) }
        var order: [Int] = []
        order.reserveCapacity(path.count)
        for name in path {
            guard let index = occurrences[name]?.popLast() else { return false }
            order.append(index)
        }
        for later in order.indices {
            for earlier in 0..<later where order[earlier] > order[later] {
                guard ranAtOnce(order[earlier], order[later]) else { return false }
            }
        }
        return true
    }
}
