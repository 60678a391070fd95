/// Which hop handed a hop its command — the link a profile counts and a diagram draws from one handler to the next.
///
/// The hop before it in the trace, as a chain walks its handlers one after another (and a registry asks its
/// members), unless the trace says otherwise: a hop that ran inside another (``Hop/parent``) after other hops
/// inside that one got the command from it, not from the last of them. A handler that fans out to workers, each in a
/// child task, hands each worker the command; the workers did not hand it to one another. (Drawn from the order
/// alone, a fan-out to `Stock[a]`, `Stock[b]` and `Stock[c]`, then `Pay`, showed `Stock[a] → Stock[b] → Stock[c] →
/// Pay`.) Only a registry's members keep the order: the registry asks them one after another, and the hop after
/// its last member came from that member, as it does when a `Chain` walks on past a registry.
@usableFromInline
package enum HopSource {
    /// The position of the hop that handed hop `index` its command, or -1 for the first (the command's arrival).
    ///
    /// - Parameters:
    ///   - parent: The position of the hop a hop ran inside (below it), or -1.
    ///   - isMember: Whether hop `position` is asked as a member of the registry that is hop `of`.
    @inlinable
    package static func source(of index: Int, parent: (Int) -> Int, isMember: (_ position: Int, _ of: Int) -> Bool)
        -> Int
    {
        guard index > 0 else { return -1 }
        let previous = index - 1
        let enclosing = parent(index)
        // The usual cases, told at once: a hop at the top, the first inside its parent, a registry's member.
        guard enclosing >= 0, enclosing != previous, !isMember(index, enclosing) else { return previous }
        // Hops ran inside `enclosing` before this one: the one of them directly inside it that the previous hop is in.
        var sibling = previous
        while true {
            let up = parent(sibling)
            if up == enclosing { break }
            // The previous hop is not inside `enclosing` at all (another task's): the command came from `enclosing`.
            guard up > enclosing, up < sibling else { return enclosing }
            sibling = up
        }
        return isMember(sibling, enclosing) ? previous : enclosing
    }
}

extension HopSource {
    /// ``source(of:parent:isMember:)`` over a trace's records.
    @inlinable
    static func source(of index: Int, in records: UnsafeBufferPointer<HopRecord>) -> Int {
        source(of: index, parent: { Int(records[$0].parent) }) { position, of in
            records[position].registry >= 0 && records[position].registry == records[of].handler
        }
    }
}

extension Trace {
    /// For each hop, the position of the hop that handed it its command, or -1 for the first (see ``HopSource``).
    package var hopSources: [Int] {
        storage.read { _, records in
            records.indices.map { index in
                HopSource.source(of: index, in: records)
            }
        }
    }
}
