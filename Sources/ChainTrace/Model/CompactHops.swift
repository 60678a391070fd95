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
    /// Its own time, in nanoseconds.
    @usableFromInline package var selfNanoseconds: UInt64
    /// Its whole time, in nanoseconds.
    @usableFromInline package var inclusiveNanoseconds: UInt64

    /// Creates a compact hop.
    @inlinable
    package init(handler: Int, registry: Int, decision: Decision, selfNanoseconds: UInt64, inclusiveNanoseconds: UInt64) {
        self.handler = handler
        self.registry = registry
        self.decision = decision
        self.selfNanoseconds = selfNanoseconds
        self.inclusiveNanoseconds = inclusiveNanoseconds
    }
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

    /// Calls `body` with each hop in compact form — the same numbers ``hops`` gives, without building them.
    @inlinable
    package func forEachCompactHop(_ body: (CompactHop) -> Void) {
        storage.read { header, records in
            // Read once per trace, not once per conversion.
            let scale = header.pointee.inTicks ? MonotonicClock.nanosecondsPerTick : nil
            for record in records {
                let (inclusive, exclusive) = TraceStorage.durations(of: record, scale: scale)
                body(
                    CompactHop(
                        handler: Int(record.handler), registry: Int(record.registry), decision: record.decision,
                        selfNanoseconds: exclusive, inclusiveNanoseconds: inclusive))
            }
        }
    }
}
