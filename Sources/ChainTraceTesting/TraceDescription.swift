import ChainTrace
import ChainTraceDefinitions

/// The words failure messages use for traces: paths side by side with the first difference marked, and the
/// hops involved with their decisions and times.
enum TraceDescription {
    /// `A → B → C`, or `(no hops)`.
    static func path(_ names: [String]) -> String {
        names.isEmpty ? "(no hops)" : names.joined(separator: " → ")
    }

    /// Expected and actual paths aligned, with a caret under the first hop that differs.
    static func pathDifference(expected: [String], actual: [String]) -> String {
        let first = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, actual.count)
        let prefix = path(Array(actual.prefix(first)))
        let offset = first == 0 ? 0 : prefix.count + " → ".count
        var text = "  expected: \(path(expected))\n"
        text += "  actual:   \(path(actual))\n"
        text += "  " + String(repeating: " ", count: "actual:   ".count + offset) + "^ first difference, hop \(first + 1)\n"
        return text
    }

    /// Each hop on its own line: position, handler, decision, reason, self and inclusive time.
    static func hops(of trace: Trace) -> String {
        let width = trace.hops.map(\.handler.count).max() ?? 0
        var text = "  hops of \(trace.commandID.map { "command \($0) " } ?? "")(\(trace.commandKind)):\n"
        for hop in trace.hops {
            let name = hop.handler + String(repeating: " ", count: width - hop.handler.count)
            let decision = hop.decision.rawValue + String(repeating: " ", count: 9 - hop.decision.rawValue.count)
            text += "    \(hop.position + 1). \(name)  \(decision)  self \(DurationText.format(nanoseconds: Int64(clamping: hop.selfDuration)))"
            text += ", inclusive \(DurationText.format(nanoseconds: Int64(clamping: hop.inclusiveDuration)))"
            if let reason = hop.reason { text += "  (\(reason))" }
            text += "\n"
        }
        text += "  outcome: \(trace.outcome)\n"
        return text
    }
}
