import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog
import Testing

@Suite("Chrome trace events and folded stacks")
struct ExportTests {
    /// Two traces of a chain with a registry (whose members' hops nest inside its hop) and a failure.
    func traces() throws -> [Trace] {
        let sink = InMemoryTraceSink()
        struct Jam: Error, CustomStringConvertible { var description: String { "jam;med" } }
        let chain = try Chain<String, String>("vend;ing", recorder: Recorder(sink: sink))
        try chain.append(.observer("Counter") { _ in })
        let registry = try chain.addRegistry("Screens")
        try registry.register(Handler("Detail") { $0 == "share" ? .accept("Detail") : .pass }, weight: 10)
        try chain.append(
            Handler("Window") { command in
                if command == "crash" { throw Jam() }
                return .pass
            }
        )
        _ = try chain.send("share")
        _ = try? chain.send("crash")
        return sink.traces
    }

    @Test func chromeEventsParseAndCarryTheDocumentedFields() throws {
        let traces = try traces()
        var export = ChromeTraceExport()
        var bytes = ChromeTraceExport.header
        for trace in traces { bytes += export.events(for: trace) }
        bytes += ChromeTraceExport.footer
        let document = try JSONParser.parse(String(decoding: bytes, as: UTF8.self))
        #expect(document["displayTimeUnit"] == "ns")
        guard case .array(let events)? = document["traceEvents"] else {
            Issue.record("no traceEvents array")
            return
        }
        let complete = events.filter { $0["ph"] == "X" }
        let hops = complete.filter { $0["cat"] == "hop" }
        #expect(hops.count == traces.reduce(0) { $0 + $1.hops.count })
        for event in complete {
            #expect(event["ts"]?.doubleValue != nil && event["dur"]?.doubleValue != nil)
            #expect(event["pid"] == 1)
        }
        let detail = try #require(hops.first { $0["name"] == "Detail" })
        #expect(detail["args"]?["decision"] == "accepted")
        #expect(detail["args"]?["registry"] == "Screens")
        #expect(detail["args"]?["position"] == 2)
        #expect(detail["args"]?["selfUs"]?.doubleValue != nil)
        // Nesting: the member's slice lies within its registry's slice, on the same track.
        let screens = try #require(hops.first { $0["name"] == "Screens" && $0["tid"] == detail["tid"] })
        let start = try #require(screens["ts"]?.doubleValue)
        let end = start + (screens["dur"]?.doubleValue ?? 0)
        let detailStart = try #require(detail["ts"]?.doubleValue)
        #expect(detailStart >= start && detailStart + (detail["dur"]?.doubleValue ?? 0) <= end + 0.001)
        // One track per command, named after it; an instant where each ended.
        #expect(events.filter { $0["name"] == "thread_name" }.count == 2)
        let instants = events.filter { $0["ph"] == "i" }.compactMap { $0["name"]?.stringValue }
        #expect(instants == ["accepted by Detail", "failed at Window: jam;med (Jam)"])
        #expect(events.contains { $0["name"] == "process_name" && $0["args"]?["name"] == "vend;ing" })
    }

    @Test func foldedLinesNestRegistryMembersAndSumToTheTracesSelfTime() throws {
        let traces = try traces()
        var export = FoldedStacksExport()
        for trace in traces { export.add(trace) }
        let lines = export.text(unit: .nanoseconds).split(separator: "\n").map(String.init)
        let stacks = lines.map { String($0[..<$0.lastIndex(of: " ")!]) }
        #expect(stacks.contains("vend_ing;Screens;Detail"))
        #expect(stacks.contains("vend_ing;Window"))
        let total = lines.reduce(UInt64(0)) { $0 + UInt64($1[$1.index(after: $1.lastIndex(of: " ")!)...])! }
        #expect(total == traces.reduce(0) { sum, trace in sum + trace.hops.reduce(0) { $0 + $1.selfDuration } })
        let microseconds = export.text().split(separator: "\n")
        #expect(microseconds.count == lines.count)
    }
}
