/// One hop as the package's analyses read it: the handler and registry as indexes into the trace's name list
/// (shared by every trace of one chain version), with times already in nanoseconds. No strings are copied.
@usableFromInline
package struct CompactHop: Sendable {
    /// The handler's index in the names.
    @usableFromInline package var handler: Int
    /// The registry's index in the names, or -1.
    @usableFromInline package var registry: Int
    /// What it decided.
    @usableFromInline package var decision: Decision
    /// The index of the hop it ran inside, or -1 at the top (or not recorded).
    @usableFromInline package var parent: Int
    /// Its own time, in nanoseconds.
    @usableFromInline package var selfNanoseconds: UInt64
    /// Its whole time, in nanoseconds.
    @usableFromInline package var inclusiveNanoseconds: UInt64
    /// From the start of the trace to the start of the hop, in nanoseconds.
    @usableFromInline package var startNanoseconds: UInt64

    /// Creates a compact hop.
    @inlinable
    package init(
        handler: Int,
        registry: Int,
        decision: Decision,
        parent: Int,
        selfNanoseconds: UInt64,
        inclusiveNanoseconds: UInt64,
        startNanoseconds: UInt64
    ) {
        self.handler = handler
        self.registry = registry
        self.decision = decision
        self.parent = parent
        self.selfNanoseconds = selfNanoseconds
        self.inclusiveNanoseconds = inclusiveNanoseconds
        self.startNanoseconds = startNanoseconds
    }
}

/// How a trace ended: fell off the end, or decided by a handler (an index in the trace's names).
package enum CompactOutcomeRecord: Sendable {
    case fellOffTheEnd
    case decided(handler: Int, failed: Bool)
}

/// How a trace ended, without the names ``Outcome`` carries.
package enum CompactOutcome: Sendable {
    case accepted, failed, fellOffTheEnd
}

extension Trace {
    /// The trace's handler names, which ``CompactHop`` indexes, and their owner: the same object for every trace
    /// sharing those names (all traces of one chain version). Hold the owner while relying on its identity.
    package var compactNames: (names: [String], owner: any AnyObject & Sendable) {
        storage.header { ($0.pointee.names.names, $0.pointee.names) }
    }

    /// The identity of ``compactNames``'s owner, read without retaining anything: equal for two traces exactly
    /// when they share their names, as long as the owner of one of them is held.
    package var compactNamesIdentity: ObjectIdentifier {
        storage.header { ObjectIdentifier($0.pointee.names) }
    }

    /// How the trace ended — what ``outcome`` says, without making its strings.
    package var compactOutcome: CompactOutcome {
        if let outcomeOverride {
            switch outcomeOverride {
            case .accepted: return .accepted
            case .failed: return .failed
            case .fellOffTheEnd: return .fellOffTheEnd
            }
        }
        return storage.read { header, records in
            let hop = Int(header.pointee.outcomeHop)
            guard hop >= 0 else { return .fellOffTheEnd }
            return records[hop].decision == .failed ? .failed : .accepted
        }
    }

    /// The index in ``compactNames`` of the handler the command entered at.
    package var compactEntry: Int { storage.header { Int($0.pointee.entry) } }

    /// How the trace ended, by the numbers: the deciding hop's handler (an index in ``compactNames``), or `nil`
    /// when the trace was given an outcome no hop accounts for (read ``outcome`` then).
    package var compactOutcomeRecord: CompactOutcomeRecord? {
        if outcomeOverride != nil { return nil }
        return storage.read { header, records in
            let hop = Int(header.pointee.outcomeHop)
            guard hop >= 0 else { return .fellOffTheEnd }
            return .decided(handler: Int(records[hop].handler), failed: records[hop].decision == .failed)
        }
    }

    /// Whether some hops of the trace may have run at once: some hop records the hop it ran inside
    /// (``Hop/parent``), and a hop opened before a sibling opened earlier — a hop with the same parent, or at the
    /// top — had closed. Read from the records without making hops or allocating (most traces are told apart at
    /// the first check); it may say `true` for siblings recorded out of the order they started, never `false` for
    /// siblings that overlap.
    package var mayHaveHopsAtOnce: Bool {
        storage.read { _, records in
            guard records.contains(where: { $0.parent >= 0 }) else { return false }
            return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: records.count + 1) { ends in
                ends.initialize(repeating: 0)
                for index in records.indices {
                    let record = records[index]
                    let parent = record.parent >= 0 && Int(record.parent) < index ? Int(record.parent) : records.count
                    if record.startOffset < ends[parent] { return true }
                    let (end, overflow) = record.startOffset.addingReportingOverflow(record.inclusiveDuration)
                    ends[parent] = max(ends[parent], overflow ? .max : end)
                }
                return false
            }
        }
    }

    /// The position of the hop that decided the outcome (the hop ``outcome`` names), or `nil` when the command fell
    /// off the end or the trace was given an outcome no hop accounts for.
    package var compactOutcomeHop: Int? {
        if outcomeOverride != nil { return nil }
        return storage.header { header in
            let hop = Int(header.pointee.outcomeHop)
            return hop >= 0 ? hop : nil
        }
    }

    /// Calls `body` with each hop's position and reason, for the hops that have one.
    package func forEachReason(_ body: (Int, String) -> Void) {
        storage.header { header in
            for (position, reason) in header.pointee.reasons.values.enumerated() {
                if let reason, position < header.pointee.count { body(position, reason) }
            }
        }
    }

    /// Calls `body` with each hop in compact form — the same numbers ``hops`` gives, without building them.
    @inlinable
    package func forEachCompactHop(_ body: (CompactHop) -> Void) {
        forEachCompactHop { hop, _ in body(hop) }
    }

    /// Calls `body` with each hop in compact form and the index in the names of the handler whose hop handed it
    /// its command (see ``HopSource``), or -1 for the first.
    @inlinable
    package func forEachCompactHop(_ body: (CompactHop, _ sourceHandler: Int) -> Void) {
        storage.read { header, records in
            // Read once per trace, not once per conversion.
            let scale = header.pointee.inTicks ? MonotonicClock.nanosecondsPerTick : nil
            for index in records.indices {
                let record = records[index]
                let (inclusive, exclusive) = TraceStorage.durations(of: record, scale: scale)
                let start =
                    scale.map { MonotonicClock.nanoseconds(record.startOffset, scale: $0) } ?? record.startOffset
                let source = HopSource.source(of: index, in: records)
                body(
                    CompactHop(
                        handler: Int(record.handler),
                        registry: Int(record.registry),
                        decision: record.decision,
                        parent: Int(record.parent),
                        selfNanoseconds: exclusive,
                        inclusiveNanoseconds: inclusive,
                        startNanoseconds: start
                    ),
                    source < 0 ? -1 : Int(records[source].handler)
                )
            }
        }
    }
}
