/// One hop as the package's analyses read it: the handler and registry as indexes into the trace's name list
/// (shared by every trace of one chain version), with times already in nanoseconds. No strings are copied.
package struct CompactHop: Sendable {
    /// The handler's index in the names.
    package var handler: Int
    /// The registry's index in the names, or -1.
    package var registry: Int
    /// What it decided.
    package var decision: Decision
    /// Its own time, in nanoseconds.
    package var selfNanoseconds: UInt64
    /// Its whole time, in nanoseconds.
    package var inclusiveNanoseconds: UInt64
}

extension Trace {
    /// The trace's handler names, which ``CompactHop`` indexes, and their owner: the same object for every trace
    /// sharing those names (all traces of one chain version). Hold the owner while relying on its identity.
    package var compactNames: (names: [String], owner: any AnyObject & Sendable) {
        storage.withUnsafeMutablePointerToHeader { header in
            (header.pointee.names.names, header.pointee.names)
        }
    }

    /// Calls `body` with each hop in compact form — the same numbers ``hops`` gives, without building them.
    package func forEachCompactHop(_ body: (CompactHop) -> Void) {
        storage.withUnsafeMutablePointers { header, elements in
            let inTicks = header.pointee.inTicks
            for position in 0..<header.pointee.count {
                let record = elements[position]
                let (inclusive, exclusive) = TraceStorage.durations(of: record, inTicks: inTicks)
                body(
                    CompactHop(
                        handler: Int(record.handler), registry: Int(record.registry), decision: record.decision,
                        selfNanoseconds: exclusive, inclusiveNanoseconds: inclusive))
            }
        }
    }
}
