/// Which hop each hop of a trace ran inside, as its times tell — the one rule every export that nests hops (spans,
/// flame-graph stacks, trace-event tracks) follows.
///
/// A hop runs inside an earlier hop whose time contains its own (it starts before that hop ends, and ends no
/// later). A hop that called others synchronously has nested time — its inclusive time less its self time — and
/// the hop goes inside the latest such hop containing it, as a hop of a synchronous or sequential async chain is
/// inside the one that called it. Hops with no nested time are of two kinds the times cannot tell apart: ones that
/// ran no hop, and ones that fanned out to child tasks (a hop's time in its child tasks, which ran at once, is not
/// taken from its self time). Of the hops of no nested time that contain the hop and lie within that caller, it
/// goes inside the outermost that is the caller's own descendant: the hop that fanned out, not a sibling that ran
/// at the same time. Before this rule, exports took "the last hop still open when it starts", nested a sibling in
/// its sibling, and wrote spans that end after their parents. (A fan-out inside a hop of a fan-out is taken as the
/// outer one's: the trace records times, not tasks.)
package enum HopNesting {
    /// For each hop, in `hops`' order (the order they started), the index of the hop it ran inside, or `nil` at
    /// the top (inside the command). Arithmetic on the times saturates.
    package static func enclosing(_ hops: [Hop]) -> [Int?] {
        var open: [(index: Int, end: UInt64)] = []
        var result: [Int?] = []
        result.reserveCapacity(hops.count)
        for (index, hop) in hops.enumerated() {
            let start = hop.startOffset
            let end = start.saturatingAdd(hop.inclusiveDuration)
            // Hops over by the time this one starts hold nothing from here on.
            open.removeAll { $0.end <= start }
            // (Started no later, too: a log may list hops out of the order they started.)
            let containing = open.filter { $0.end >= end && hops[$0.index].startOffset <= start }.map(\.index)
            // The latest hop with nested time containing this one (its caller, if a call), and the hops of none after it.
            let callerPosition = containing.lastIndex { hasNestedTime(hops[$0]) }
            let caller = callerPosition.map { containing[$0] }
            let after = containing[(callerPosition.map { $0 + 1 } ?? 0)...]
            let fannedOut = after.first { candidate in caller.map { isDescendant(candidate, of: $0, result) } ?? true }
            result.append(fannedOut ?? caller)
            open.append((index, end))
        }
        return result
    }

    private static func hasNestedTime(_ hop: Hop) -> Bool { hop.inclusiveDuration > hop.selfDuration }

    /// Whether `hop`'s chain of enclosing hops (in `enclosing`, filled up to it) reaches `ancestor`.
    private static func isDescendant(_ hop: Int, of ancestor: Int, _ enclosing: [Int?]) -> Bool {
        var current = enclosing[hop]
        while let outer = current {
            if outer == ancestor { return true }
            current = enclosing[outer]
        }
        return false
    }
}
