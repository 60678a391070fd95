public import ChainTrace
import ChainTraceJSON
import ChainTraceTraceLog
public import InMemoryTracing
import Tracing

/// What is wrong with a trace log of requests served under the app's request spans (`spans`, a W3C-propagating
/// tracer's), as a user sees it: every trace read back from `logPath` must name its request's span — a server span
/// called `requestSpanName`, in the same trace — and `chaintrace export --to otlp`'s spans of the log must put each
/// command's span under that span, in its trace. Empty when all holds.
public func requestSpanComplaints(
    logPath: String,
    spans: [FinishedInMemorySpan],
    requestSpanName: (Trace) -> String
) -> [String] {
    let traces: [Trace]
    do {
        traces = try TraceLogReader(path: logPath).readAll().traces
    } catch {
        return ["the log does not read: \(error)"]
    }
    var complaints: [String] = []
    if traces.isEmpty { complaints.append("the log holds no traces") }
    var export = OTLPTraceExport()
    var bytes = OTLPTraceExport.header
    for trace in traces {
        bytes += export.spans(for: trace)
        guard let parent = trace.traceParent else {
            complaints.append("\(trace.commandKind) #\(trace.id) names no request span")
            continue
        }
        let request = spans.first { $0.spanID == parent.spanID }
        if request?.traceID != parent.traceID || request?.kind != .server
            || request?.operationName != requestSpanName(trace)
        {
            complaints.append(
                "\(trace.commandKind) #\(trace.id) names \(parent), not its request span "
                    + "\(requestSpanName(trace)) (found \(request.map { "\($0.operationName), \($0.kind)" } ?? "none"))"
            )
        }
    }
    bytes += OTLPTraceExport.footer
    // The export's command spans: those no other exported span is the parent of — each must hang under the span its
    // trace names.
    guard case .object(let request)? = try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)),
        case .array(let resources)? = request["resourceSpans"],
        case .array(let scopes)? = resources.first?["scopeSpans"],
        case .array(let exported)? = scopes.first?["spans"]
    else { return complaints + ["the OTLP export does not parse"] }
    let exportedIDs = Set(exported.compactMap { $0["spanId"]?.stringValue })
    let commandSpans = exported.filter { span in
        span["parentSpanId"]?.stringValue.map { !exportedIDs.contains($0) } ?? true
    }
    if commandSpans.count != traces.count {
        complaints.append("the export has \(commandSpans.count) command spans for \(traces.count) traces")
    }
    for (span, trace) in zip(commandSpans, traces) {
        let parent = trace.traceParent
        if span["parentSpanId"]?.stringValue != parent?.spanID || span["traceId"]?.stringValue != parent?.traceID {
            complaints.append(
                "the export's span of \(trace.commandKind) #\(trace.id) is not under \(String(describing: parent))"
            )
        }
    }
    return complaints
}
