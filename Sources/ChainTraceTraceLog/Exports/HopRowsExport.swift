public import ChainTrace
import ChainTraceJSON

/// Writes traces as flat JSON Lines for query engines (DuckDB, Spark, pandas): one object per hop, every member
/// always present (`null` when absent), so an engine infers one schema for any number of files.
///
/// Members: `file` (the log file, as named to the reader), `trace` (the trace's number in that file, from 1),
/// `traceId`, `chain`, `chainVersion`, `commandKind`, `commandId`, `startNs` (the trace's wall-clock start),
/// `durationNs`, `outcome` (`accepted`, `fellOffTheEnd`, `failed`), `position` (the hop's, from 0), `parent` (the
/// position of the hop it ran inside, as the other exports nest it (`HopNesting`); `null` at the top), `handler`,
/// `registry`, `decision`, `selfNs`, `inclusiveNs`, `offsetNs` (from the trace's start) and `reason`. A trace
/// with no hop is one row whose hop members are `null`, so counting distinct `(file, trace)` counts commands.
/// Times are nanoseconds, saturated to what a signed 64-bit column holds.
public struct HopRowsExport: Sendable {
    /// Starts an export.
    public init() {}

    /// The rows of `trace`, the `number`th trace of `file`, each ending in a newline.
    public func rows(for trace: Trace, number: Int, file: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendRows(for: trace, number: number, file: file, to: &bytes)
        return bytes
    }

    /// Appends the rows of `trace`, the `number`th trace of `file`, to `bytes`.
    ///
    /// Written member by member in sorted key order, the trace's members encoded once for all its hops — the same
    /// bytes as writing each row as a JSON object with sorted keys (`HopRowsDifferentialTests`), without building one.
    public func appendRows(for trace: Trace, number: Int, file: String, to bytes: inout [UInt8]) {
        var writer = JSONWriter()
        func piece(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
            writer.removeAll()
            write(&writer)
            return writer.bytes
        }
        // The trace's members, between which each hop's fall in sorted key order.
        let head = piece { writer in
            writer.append(#"{"chain":"#)
            writer.write(trace.chain)
            writer.append(#","chainVersion":"#)
            writer.write(Int64(clamping: trace.chainVersion))
            writer.append(#","commandId":"#)
            if let id = trace.commandID { writer.write(id) } else { writer.append("null") }
            writer.append(#","commandKind":"#)
            writer.write(trace.commandKind)
            writer.append(#","decision":"#)
        }
        let duration = piece { writer in
            writer.append(#","durationNs":"#)
            writer.write(Int64(clamping: trace.duration))
            writer.append(#","file":"#)
            writer.write(file)
            writer.append(#","handler":"#)
        }
        let outcome = piece { writer in
            writer.append(#","outcome":"#)
            writer.write(trace.outcome.kind)
            writer.append(#","parent":"#)
        }
        let tail = piece { writer in
            writer.append(#","startNs":"#)
            writer.write(trace.startTime)
            writer.append(#","trace":"#)
            writer.write(Int64(clamping: number))
            writer.append(#","traceId":"#)
            writer.write(Int64(clamping: trace.id))
            writer.append("}\n")
        }
        writer.removeAll()
        defer { bytes.append(contentsOf: writer.bytes) }
        let hops = trace.hops
        let parents = HopNesting.enclosing(hops)
        func row(_ hop: Hop?, parent: Int?) {
            writer.append(bytes: head)
            if let hop { writer.write(hop.decision.rawValue) } else { writer.append("null") }
            writer.append(bytes: duration)
            if let hop { writer.write(hop.handler) } else { writer.append("null") }
            writer.append(#","inclusiveNs":"#)
            if let hop { writer.write(Int64(clamping: hop.inclusiveDuration)) } else { writer.append("null") }
            writer.append(#","offsetNs":"#)
            if let hop { writer.write(Int64(clamping: hop.startOffset)) } else { writer.append("null") }
            writer.append(bytes: outcome)
            if let parent { writer.write(Int64(clamping: hops[parent].position)) } else { writer.append("null") }
            writer.append(#","position":"#)
            if let hop { writer.write(Int64(clamping: hop.position)) } else { writer.append("null") }
            writer.append(#","reason":"#)
            if let reason = hop?.reason { writer.write(reason) } else { writer.append("null") }
            writer.append(#","registry":"#)
            if let registry = hop?.registry { writer.write(registry) } else { writer.append("null") }
            writer.append(#","selfNs":"#)
            if let hop { writer.write(Int64(clamping: hop.selfDuration)) } else { writer.append("null") }
            writer.append(bytes: tail)
        }
        if hops.isEmpty { row(nil, parent: nil) }
        for (index, hop) in hops.enumerated() { row(hop, parent: parents[index]) }
    }
}
