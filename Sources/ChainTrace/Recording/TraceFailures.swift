import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceJSON

/// Where a trace's failures started and which hops recovered from them: read from the hops' records, as a hop
/// closes after one failed. Nearly every trace has no failure, and none of this runs for it.
extension ActiveTrace.Content {
    /// Whether a hop inside open hop `record`, the innermost of a trace of one thread, failed: an error it
    /// throws was then most likely handed up from there.
    func failed(inside record: Int) -> Bool {
        var nested = record &+ 1
        while nested < records.count {
            if records[nested].decision == .failed, !isRecovered(nested) { return true }
            nested &+= 1
        }
        return false
    }

    /// Whether failed hop `hop` is inside a hop that recovered from it (see ``recoverFailures(inside:)``).
    func isRecovered(_ hop: Int) -> Bool {
        !recovering.isEmpty && recovering.contains { isInside(hop, $0) }
    }

    /// Whether `hop` was opened inside `ancestor` (at any depth): its parents are followed up, each an earlier
    /// record.
    func isInside(_ hop: Int, _ ancestor: Int) -> Bool {
        var node = Int(records[hop].parent)
        while node > ancestor { node = Int(records[node].parent) }
        return node == ancestor
    }

    /// For hop `record`, returning normally while the trace has a failure: whether a hop inside it threw that
    /// no hop inside it recovered from — then it caught the error and recovered, every failure inside it no
    /// longer ends the command, and the trace's failure becomes the first (in time) of those no hop recovered
    /// from — and whether a hop inside it accepted (else it handled the command itself). Rare: only when some
    /// hop failed.
    mutating func recoverFailures(inside record: Int) -> (recovered: Bool, acceptedInside: Bool) {
        var failedInside = false
        var acceptedInside = false
        for hop in (record &+ 1)..<records.count where isInside(hop, record) {
            switch records[hop].decision {
            case .failed: if thrown.contains(hop), !isRecovered(hop) { failedInside = true }
            case .accepted: acceptedInside = true
            default: break
            }
        }
        guard failedInside else { return (false, acceptedInside) }
        recovering.append(record)
        var first: (end: UInt64, hop: Int)?
        for hop in 0..<records.count where records[hop].decision == .failed {
            guard !isRecovered(hop) else { continue }
            let end = records[hop].startOffset &+ records[hop].inclusiveDuration
            if first.map({ end < $0.end }) ?? true { first = (end, hop) }
        }
        failure = first?.hop
        return (true, acceptedInside)
    }

    /// Whether every failure inside `record` that still ends the command was thrown as a `CancellationError`,
    /// while `record` throws `error`, which is none: the hops inside it were cancelled by it (a timeout that won
    /// a race, a task group it cancelled), and the failure is its own. Out of line: only for a hop that threw
    /// after one inside it failed.
    @inline(never)
    func failedOnlyByCancellation(inside record: Int, throwing error: any Error) -> Bool {
        guard !(error is CancellationError) else { return false }
        var cancelled = false
        for hop in (record &+ 1)..<records.count where isInside(hop, record) && records[hop].decision == .failed {
            guard thrown.contains(hop), !isRecovered(hop) else { continue }
            guard let inner = failureErrors.first(where: { $0.record == hop }), inner.error is CancellationError else {
                return false
            }
            cancelled = true
        }
        return cancelled
    }
}
