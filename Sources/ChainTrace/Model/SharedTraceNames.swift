import ChainTraceJSON

/// A name list several traces share — the names of one log segment, with one chain's name — so that traces read
/// from a log are built without a dictionary of their own names each, and analyses that map names once per list
/// (``Trace/compactNamesIdentity``) do so once per segment rather than once per trace.
package struct SharedTraceNames: Sendable {
    @usableFromInline let table: HandlerNameTable

    /// The names, with `chain` as the chain's name; `lineage` when they start with every name of each earlier list
    /// of that lineage, in the same places (see ``NameLineage``).
    package init(chain: String, names: [String], lineage: NameLineage? = nil) {
        table = HandlerNameTable(chain: chain, commandType: "", names: names, lineage: lineage)
    }

    /// How many names there are.
    package var count: Int { table.names.count }
}

extension Trace {
    /// A trace built from indexes into `names`, as a log reader has them: the same trace the public initialiser
    /// builds from the same values (its outcome matched to a hop the same way), with no names copied.
    ///
    /// - Parameters:
    ///   - hops: The hops, handler and registry as indexes into `names` (registry -1 for none), times in
    ///     nanoseconds; each hop's position is its place in the array.
    ///   - reasons: Hop positions and their reasons.
    ///   - traceParent: The span the command ran under, if the log says.
    package init(
        id: UInt64,
        commandKind: String,
        commandID: String?,
        payload: JSONValue?,
        names: SharedTraceNames,
        entry: Int,
        chainVersion: Int,
        startTime: Int64,
        hops: [CompactHop],
        reasons: [(Int, String)],
        outcome: Outcome,
        duration: UInt64,
        traceParent: TraceParent? = nil
    ) {
        let table = names.table
        var hopReasons = HopReasons()
        for (position, reason) in reasons { hopReasons.set(reason, at: position) }
        var records: [HopRecord] = []
        records.reserveCapacity(hops.count)
        for hop in hops {
            records.append(
                HopRecord(
                    handler: Int32(hop.handler),
                    registry: Int32(hop.registry),
                    decision: hop.decision,
                    parent: Int32(truncatingIfNeeded: hop.parent),
                    startOffset: hop.startNanoseconds,
                    inclusiveDuration: hop.inclusiveNanoseconds,
                    selfDuration: hop.selfNanoseconds
                )
            )
        }
        // As the public initialiser does: the last hop if it decided this outcome, else the first that did.
        func decides(_ position: Int) -> Bool {
            let hop = hops[position]
            switch (hop.decision, outcome) {
            case (.accepted, .accepted(let handler)): return table.names[hop.handler] == handler
            case (.failed, .failed(let handler, let error)):
                return table.names[hop.handler] == handler && (hopReasons[position] ?? "") == error
            default: return false
            }
        }
        var outcomeHop: Int32 = -1
        var outcomeMatches = outcome == .fellOffTheEnd
        if let last = hops.indices.last {
            if decides(last) {
                outcomeHop = Int32(last)
                outcomeMatches = true
            } else if let match = hops.indices.first(where: decides) {
                outcomeHop = Int32(match)
                outcomeMatches = true
            }
        }
        var header = TraceHeader(
            id: id,
            names: table,
            kind: commandKind,
            commandID: commandID,
            payload: payload,
            entry: Int32(entry),
            chainVersion: chainVersion,
            start: UInt64(bitPattern: startTime),
            inTicks: false
        )
        header.duration = duration
        header.reasons = hopReasons
        header.outcomeHop = outcomeHop
        header.outcomeOverride = outcomeMatches ? nil : outcome
        header.traceParent = traceParent
        self.init(storage: .make(records: records, header: header))
    }
}
