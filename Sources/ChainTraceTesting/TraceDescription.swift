import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON

/// The words failure messages use for traces: paths side by side with the first difference marked, and the
/// hops involved with their decisions and times.
///
/// Every name and text from a trace (handlers, ids, kinds, reasons, errors) is shown escaped (`VisibleText`):
/// a failure message is printed to a terminal, where a newline in a name would break its layout and an escape
/// sequence or a bidi override would act instead of showing.
enum TraceDescription {
    /// `text` from a trace as a failure message shows it.
    static func shown(_ text: String) -> String {
        VisibleText.escaped(text)
    }

    /// `A → B → C`, or `(no hops)`.
    static func path(_ names: [String]) -> String {
        names.isEmpty ? "(no hops)" : names.map(shown).joined(separator: " → ")
    }

    /// Expected and actual paths aligned, with a caret under the first hop that differs.
    static func pathDifference(expected: [String], actual: [String]) -> String {
        let first =
            zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expected.count, actual.count)
        let prefix = path(Array(actual.prefix(first)))
        // The caret stands under the first differing name as shown (escaped), counted in characters.
        let offset = first == 0 ? 0 : prefix.count + " → ".count
        var text = "  expected: \(path(expected))\n"
        text += "  actual:   \(path(actual))\n"
        text +=
            "  " + String(repeating: " ", count: "actual:   ".count + offset) + "^ first difference, hop \(first + 1)\n"
        return text
    }

    /// Each hop on its own line: position, handler, decision, reason, self and inclusive time.
    static func hops(of trace: Trace) -> String {
        let names = trace.hops.map { shown($0.handler) }
        let width = names.map(\.count).max() ?? 0
        var text =
            "  hops of \(trace.commandID.map { "command \(shown($0))" } ?? "the command") (\(shown(trace.commandKind))):\n"
        for (hop, shownName) in zip(trace.hops, names) {
            let name = shownName + String(repeating: " ", count: width - shownName.count)
            let decision = hop.decision.rawValue + String(repeating: " ", count: 9 - hop.decision.rawValue.count)
            text +=
                "    \(hop.position + 1). \(name)  \(decision)  self \(DurationText.format(nanoseconds: Int64(clamping: hop.selfDuration)))"
            text += ", inclusive \(DurationText.format(nanoseconds: Int64(clamping: hop.inclusiveDuration)))"
            if let reason = hop.reason { text += "  (\(shown(reason)))" }
            text += "\n"
        }
        text += "  outcome: \(shown(trace.outcome.description))\n"
        return text
    }
}
