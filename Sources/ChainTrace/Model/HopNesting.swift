import ChainTraceJSON

/// Which hop each hop of a trace ran inside — the one rule every export that nests hops (spans, flame-graph stacks,
/// trace-event tracks) follows: the parents the recorder noted (``Hop/parent``) when the trace has them, else
/// what its times tell, for traces read from logs written before parents were recorded (below).
///
/// From the times (the recorders that wrote those logs also left a hop that fanned out its whole time as its own, which
/// the rule relies on; inferring fan-outs from today's self times put a child under a sibling in 232 of 300 traces of a
/// probe, the recorded parents in none): a hop runs inside an earlier hop whose time contains its own (it starts before
/// that hop ends, and ends no later). A hop that called others synchronously has nested time — its inclusive time less
/// its self time — and the hop goes inside the latest such hop containing it, as a hop of a synchronous or sequential
/// async chain is inside the one that called it. Hops with no nested time are of two kinds the times cannot tell apart:
/// ones that ran no hop, and ones that fanned out to child tasks (a hop's time in its child tasks, which ran at once,
/// is not taken from its self time). Of the hops of no nested time that contain the hop and lie within that caller, it
/// goes inside the outermost that is the caller's own descendant: the hop that fanned out, not a sibling that ran at
/// the same time. Before this rule, exports took "the last hop still open when it starts", nested a sibling in its
/// sibling, and wrote spans that end after their parents. (A fan-out inside a hop of a fan-out is taken as the outer
/// one's: the trace records times, not tasks.)
///
/// An export keeps one and calls ``place(_:)`` for each trace: its arrays are reused, not made a trace.
package struct HopNesting: Sendable {
    /// For each hop of the last trace placed, in its order, the index of the hop it ran inside, or `nil` at the top.
    package private(set) var parents: [Int?] = []
    /// Whether each hop of the last trace placed went inside the innermost hop open when it started (or at the top,
    /// with none open): its hops nest as calls do, and one track can show them all.
    package private(set) var nestsAsCalls = true
    /// The hops open at the one being placed.
    private var open: [(index: Int, start: UInt64, end: UInt64, called: Bool)] = []

    /// Ready to place hops.
    package init() {}

    /// For each hop, in `hops`' order (the order they started), the index of the hop it ran inside, or `nil` at
    /// the top (inside the command). Arithmetic on the times saturates.
    package static func enclosing(_ hops: [Hop]) -> [Int?] {
        var nesting = HopNesting()
        nesting.place(hops)
        return nesting.parents
    }

    /// Sets ``parents`` for `hops`.
    package mutating func place(_ hops: [Hop]) {
        // Written with plain loops and no closures: closures capturing the arrays boxed them, and each access paid
        // a run-time exclusivity check (twelve a trace; `export --to folded` 16% slower than the stack it replaced);
        // the arrays are kept from trace to trace, not made for each.
        open.removeAll(keepingCapacity: true)
        parents.removeAll(keepingCapacity: true)
        nestsAsCalls = true
        // Whether the open hops nest, each inside the one before — always, but for hops run at once: then the ones
        // over are at the top, and a hop inside the top one, if that one called others, is its caller (what the
        // search below gives, without it).
        var isStack = true
        // A trace with any recorded parent has them all (a hop at the top has none).
        var recordsParents = false
        for index in hops.indices where hops[index].parent != nil {
            recordsParents = true
            break
        }
        // By index, reading the times alone: a whole `Hop` copied out retains and releases its strings.
        for index in hops.indices {
            let (start, inclusive, own) = (
                hops[index].startOffset, hops[index].inclusiveDuration, hops[index].selfDuration
            )
            let end = start.saturatingAdd(inclusive)
            // Hops over by the time this one starts hold nothing from here on.
            if isStack {
                while let last = open.last, last.end <= start { open.removeLast() }
            } else {
                open.removeAll { $0.end <= start }
            }
            var parent: Int?
            if let top = open.last, isStack, top.end >= end, top.start <= start, top.called {
                parent = top.index
            } else if !open.isEmpty {
                // Of the open hops that contain this one (started no later, too: a log may list hops out of the
                // order they started), the latest that called others — its caller — and after it, the outermost of
                // the caller's descendants: the hop that fanned out, if this one ran in a child task.
                var callerSlot = -1
                var slot = open.count - 1
                while slot >= 0 {
                    let candidate = open[slot]
                    if candidate.end >= end, candidate.start <= start, candidate.called {
                        callerSlot = slot
                        break
                    }
                    slot -= 1
                }
                let caller = callerSlot >= 0 ? open[callerSlot].index : nil
                parent = caller
                for later in (callerSlot + 1)..<open.count {
                    let candidate = open[later]
                    guard candidate.end >= end, candidate.start <= start else { continue }
                    if let caller, !Self.isDescendant(candidate.index, of: caller, parents) { continue }
                    parent = candidate.index
                    break
                }
            }
            if recordsParents {
                // Only an earlier hop can be a parent (`Trace` keeps no other; a hand-made `Hop` array might).
                parent = hops[index].parent.flatMap { $0 >= 0 && $0 < index ? $0 : nil }
            }
            if let last = open.last, !(last.end >= end && last.start <= start) { isStack = false }
            if parent != open.last?.index { nestsAsCalls = false }
            parents.append(parent)
            open.append((index, start, end, inclusive > own))
        }
    }

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
