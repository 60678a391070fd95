public import ChainTrace
import ChainTraceJSON

/// Writes traces as flat JSON Lines for query engines (DuckDB, Spark, pandas): one object per hop, every member
/// always present (`null` when absent), so an engine infers one schema for any number of files.
///
/// Members: `file` (the log file, as named to the reader), `trace` (the trace's number in that file, from 1),
/// `traceId`, `chain`, `chainVersion`, `commandKind`, `commandId`, `startNs` (the trace's wall-clock start),
/// `durationNs`, `outcome` (`accepted`, `fellOffTheEnd`, `failed`), `position` (the hop's, from 0), `handler`,
/// `registry`, `decision`, `selfNs`, `inclusiveNs`, `offsetNs` (from the trace's start) and `reason`. A trace
/// with no hop is one row whose hop members are `null`, so counting distinct `(file, trace)` counts commands.
/// Times are nanoseconds, saturated to what a signed 64-bit column holds.
public struct HopRowsExport: Sendable {
    /// Starts an export.
    public init() {}

    /// The rows of `trace`, the `number`th trace of `file`, each ending in a newline.
    public func rows(for trace: Trace, number: Int, file: String) -> [UInt8] {
        let common: [String: JSONValue] = [
            "file": .string(file), "trace": .integer(Int64(clamping: number)), "traceId": .integer(Int64(clamping: trace.id)),
            "chain": .string(trace.chain), "chainVersion": .integer(Int64(clamping: trace.chainVersion)),
            "commandKind": .string(trace.commandKind), "commandId": trace.commandID.map(JSONValue.string) ?? .null,
            "startNs": .integer(trace.startTime), "durationNs": .integer(Int64(clamping: trace.duration)),
            "outcome": .string(trace.outcome.kind),
        ]
        let hops = trace.hops
        var writer = JSONWriter()
        if hops.isEmpty {
            writer.write(JSONValue.object(common.merging(Self.hop(nil)) { first, _ in first }))
            writer.append("\n")
        }
        for hop in hops {
            writer.write(JSONValue.object(common.merging(Self.hop(hop)) { first, _ in first }))
            writer.append("\n")
        }
        return writer.bytes
    }

    private static func hop(_ hop: Hop?) -> [String: JSONValue] {
        guard let hop else {
            return [
                "position": .null, "handler": .null, "registry": .null, "decision": .null, "selfNs": .null,
                "inclusiveNs": .null, "offsetNs": .null, "reason": .null,
            ]
        }
        return [
            "position": .integer(Int64(clamping: hop.position)), "handler": .string(hop.handler),
            "registry": hop.registry.map(JSONValue.string) ?? .null, "decision": .string(hop.decision.rawValue),
            "selfNs": .integer(Int64(clamping: hop.selfDuration)), "inclusiveNs": .integer(Int64(clamping: hop.inclusiveDuration)),
            "offsetNs": .integer(Int64(clamping: hop.startOffset)), "reason": hop.reason.map(JSONValue.string) ?? .null,
        ]
    }
}
