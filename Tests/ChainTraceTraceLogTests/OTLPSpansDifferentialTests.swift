import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// `export --to otlp`'s spans, written member by member, against the plain way — each span built as a JSON object
/// and written with sorted keys — on the generated traces of the row export's test (hostile names, no id or one,
/// reasons, registries, failures, hopless traces, times at the limits) in sequence: the same bytes, with the same
/// ids (`OTLPTraceExport.ids`, shared; `OTLPTraceExportTests` checks them).
@Suite("OTLP spans against JSON objects")
struct OTLPSpansDifferentialTests {
    /// The plain model: the export as it was written before, object by object.
    struct PlainSpans {
        private var traces = 0

        mutating func spans(for trace: Trace) -> [UInt8] {
            traces += 1
            let ids = OTLPTraceExport.ids(of: trace, number: traces)
            let traceID = ids.trace
            let spanID = ids.span
            let start = UInt64(clamping: max(0, trace.startTime))
            var writer = JSONWriter()
            var first = traces == 1
            func span(_ object: [String: JSONValue]) {
                if !first { writer.append(",\n") }
                first = false
                writer.write(JSONValue.object(object))
            }
            func time(_ offset: UInt64) -> JSONValue { .string(String(start.saturatingAdd(offset))) }
            var rootAttributes: [(String, JSONValue)] = [
                ("chaintrace.chain", Self.text(trace.chain)),
                ("chaintrace.chain.version", Self.integer(Int64(clamping: trace.chainVersion))),
                ("chaintrace.command.kind", Self.text(trace.commandKind)),
                ("chaintrace.entry", Self.text(trace.entry)),
                ("chaintrace.outcome", Self.text(trace.outcome.kind)),
                ("chaintrace.hops", Self.integer(Int64(clamping: trace.hops.count))),
            ]
            if let id = trace.commandID { rootAttributes.insert(("chaintrace.command.id", Self.text(id)), at: 3) }
            var root: [String: JSONValue] = [
                "traceId": .string(traceID), "spanId": .string(spanID(0)),
                "name": .string("\(trace.chain) \(trace.commandKind)"),
                "kind": 1, "startTimeUnixNano": time(0),
                // Covering every hop, however the log's times add up.
                "endTimeUnixNano": time(
                    trace.hops.map { $0.startOffset.saturatingAdd($0.inclusiveDuration) }.reduce(trace.duration, max)
                ),
                "attributes": Self.attributes(rootAttributes),
            ]
            if case .failed(let handler, let error) = trace.outcome {
                root["status"] = Self.error("\(handler): \(error)")
            }
            span(root)
            // Each span's parent: the hop it ran inside, by the one nesting rule (tested on its own in
            // HopNestingTests); here the objects' bytes are the subject.
            let enclosing = HopNesting.enclosing(trace.hops)
            for (index, hop) in trace.hops.enumerated() {
                let end = hop.startOffset.saturatingAdd(hop.inclusiveDuration)
                var attributes: [(String, JSONValue)] = [
                    ("chaintrace.handler", Self.text(hop.handler)),
                    ("chaintrace.position", Self.integer(Int64(clamping: hop.position))),
                    ("chaintrace.decision", Self.text(hop.decision.rawValue)),
                    ("chaintrace.self_ns", Self.integer(Int64(clamping: hop.selfDuration))),
                ]
                if let reason = hop.reason { attributes.append(("chaintrace.reason", Self.text(reason))) }
                if let registry = hop.registry { attributes.append(("chaintrace.registry", Self.text(registry))) }
                let id = spanID(index + 1)
                var object: [String: JSONValue] = [
                    "traceId": .string(traceID), "spanId": .string(id),
                    "parentSpanId": .string(spanID((enclosing[index] ?? -1) + 1)),
                    "name": .string(hop.handler), "kind": 1, "startTimeUnixNano": time(hop.startOffset),
                    "endTimeUnixNano": time(end),
                    "attributes": Self.attributes(attributes),
                ]
                if hop.decision == .failed {
                    object["status"] = Self.error(hop.reason.flatMap { $0.isEmpty ? nil : $0 } ?? "failed")
                }
                span(object)
            }
            return writer.bytes
        }

        private static func attributes(_ pairs: [(String, JSONValue)]) -> JSONValue {
            .array(pairs.map { ["key": .string($0.0), "value": $0.1] })
        }

        private static func text(_ value: String) -> JSONValue { ["stringValue": .string(value)] }

        /// An `AnyValue` integer: int64 is a decimal string in OTLP/JSON.
        private static func integer(_ value: Int64) -> JSONValue { ["intValue": .string(String(value))] }

        /// Status `ERROR` (2) with its message.
        private static func error(_ message: String) -> JSONValue { ["code": 2, "message": .string(message)] }
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func spansAreTheSortedObjectsBytes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var export = OTLPTraceExport()
        var plain = PlainSpans()
        for index in 0..<Int.random(in: 1...20, using: &random) {
            let trace = HopRowsDifferentialTests.trace(&random, id: UInt64(index))
            let written = export.spans(for: trace)
            let expected = plain.spans(for: trace)
            #expect(
                written == expected,
                "seed \(seed), trace \(index): \(String(decoding: written.prefix(300), as: UTF8.self))"
            )
        }
    }
}
