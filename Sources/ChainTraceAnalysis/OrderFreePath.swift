import ChainTrace

/// What of a command's path two runs can compare when some of its hops ran at once — a stage that fanned out to
/// several handlers with `async let` or a task group: which handlers ran, and inside which, but not the order of
/// hops that ran at the same time, which the scheduler decides and which differs from one run to the next.
///
/// Which hops ran at once is ``HopsAtOnce``'s judgement. A group of siblings that ran at once is compared as a set;
/// groups, and hops that ran alone, in order. The form is a 128-bit digest of that tree of handler names, bottom up,
/// each group's members sorted. The same holds for the outcome: ``interchangeableOutcomes`` are the outcomes the
/// trace could as well have named.
///
/// A trace in which no hops ran at once has no order-free form (`nil`): its path is compared in order, as before.
/// So is a trace of more than ``HopsAtOnce/maximumHops`` hops, and a trace recorded without parents (a trace log
/// from before version 3), whose nesting is not known.
struct OrderFreePath: Sendable, Hashable {
    /// The digest of the hops' tree, concurrent siblings in sorted order.
    let digest: Digest
    /// Outcomes other than the trace's own that a run with the same hops could have named (see
    /// ``HopsAtOnce/interchangeableOutcomes(of:)``); empty when the outcome's hop ran alone.
    let interchangeableOutcomes: [Outcome]
    /// The groups of sibling hops that ran at once (two or more each), by handler name, in the order they started.
    let groupsAtOnce: [[String]]

    /// 128 bits of `Hasher`: seeded per process, which is enough, since both runs' forms are made in one.
    struct Digest: Sendable, Hashable, Comparable {
        var high: UInt64
        var low: UInt64

        static func < (lhs: Digest, rhs: Digest) -> Bool {
            (lhs.high, lhs.low) < (rhs.high, rhs.low)
        }
    }

    /// The order-free form of `trace`, or `nil` when none of its hops ran at once with a sibling.
    init?(_ trace: Trace) {
        guard let tree = HopsAtOnce(trace) else { return nil }
        let count = tree.count
        let names = trace.compactNames.names
        func name(_ hop: Int) -> String {
            let index = tree.hops[hop].handler
            return index >= 0 && index < names.count ? names[index] : ""
        }
        // Bottom up: every hop's children come after it, and the top (`count`) is last.
        var digests = [Digest](repeating: Digest(high: 0, low: 0), count: count + 1)
        for node in Array((0..<count).reversed()) + [count] {
            var high = Hasher()
            var low = Hasher()
            high.combine(0 as UInt8)
            low.combine(1 as UInt8)
            if node < count {
                high.combine(name(node))
                low.combine(name(node))
            }
            for group in tree.groups(of: node) {
                let members = group.map { digests[$0] }.sorted()
                high.combine(members.count)
                low.combine(members.count)
                for member in members {
                    high.combine(member.high)
                    high.combine(member.low)
                    low.combine(member.low)
                    low.combine(member.high)
                }
            }
            digests[node] = Digest(
                high: UInt64(bitPattern: Int64(high.finalize())),
                low: UInt64(bitPattern: Int64(low.finalize()))
            )
        }
        digest = digests[count]
        groupsAtOnce = (0...count).flatMap { node in
            tree.groups(of: node).filter { $0.count > 1 }.map { $0.map(name) }
        }
        interchangeableOutcomes = tree.interchangeableOutcomes(of: trace)
    }
}
