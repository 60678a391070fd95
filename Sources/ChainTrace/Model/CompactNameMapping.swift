/// An analysis's own value for each of the names its traces share (``Trace/compactNames``) — its handler index,
/// say — kept up to date trace by trace: remade only when a trace has other names than the last; then, when they
/// extend the names last mapped (``NameLineage``), only for the names added; and when they are the names mapped
/// the time before (a log reader's shared list, between traces with lists of their own), taken back whole.
///
/// Before, each analysis remapped a trace's whole list whenever it changed: `chaintrace stats` over a compact log of
/// 50 000 commands each naming a handler of its own took 17.8 s (every new name remapped every name before it).
package struct CompactNameMapping<Value> {
    /// The names of one list, mapped, and the list's owner — held, so that its identity stays its own.
    fileprivate struct Mapped {
        var values: [Value] = []
        var owner: (any AnyObject & Sendable)?
        var identity: ObjectIdentifier?
        var lineage: NameLineage?
    }

    private var current = Mapped()
    /// The list mapped before the current one.
    private var previous = Mapped()

    /// Nothing mapped yet.
    package init() {}

    /// The value of each name of the last trace mapped, by its index in the trace's names.
    package var values: [Value] { current.values }

    /// Whether `trace` shares the names last mapped, so that ``values`` are its names' already: one comparison.
    package func isCurrent(for trace: Trace) -> Bool {
        trace.compactNamesIdentity == current.identity
    }

    /// Maps `trace`'s names, calling `value` for each name not mapped before: the names a later list of the same
    /// lineage adds, or every name of another list — unless it is the list mapped before this one, taken back.
    /// Returns the names and the index from which ``values`` changed (0: all of them).
    @discardableResult
    package mutating func update(for trace: Trace, _ value: (String) -> Value) -> (names: [String], changedFrom: Int) {
        let (names, owner) = trace.compactNames
        let identity = ObjectIdentifier(owner)
        if identity == current.identity { return (names, current.values.count) }
        if identity == previous.identity {
            swap(&current, &previous)
            return (names, 0)
        }
        let lineage = trace.compactNameLineage
        let changedFrom: Int
        if let lineage, lineage === current.lineage, names.count >= current.values.count {
            // The same list, grown: the values of its names so far stand. (Not kept as the previous list: a
            // grown list does not go back to what it was.)
            changedFrom = current.values.count
        } else {
            swap(&current, &previous)
            current.values.removeAll(keepingCapacity: true)
            changedFrom = 0
        }
        current.values.reserveCapacity(names.count)
        for index in changedFrom..<names.count { current.values.append(value(names[index])) }
        current.owner = owner
        current.identity = identity
        current.lineage = lineage
        return (names, changedFrom)
    }
}

extension CompactNameMapping: Sendable where Value: Sendable {}

extension CompactNameMapping.Mapped: Sendable where Value: Sendable {}

extension Trace {
    /// The lineage of the trace's names (``compactNames``), if they are one of a series that only grows.
    package var compactNameLineage: NameLineage? {
        storage.header { $0.pointee.names.lineage }
    }
}
