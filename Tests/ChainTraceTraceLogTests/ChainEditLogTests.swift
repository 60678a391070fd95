import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Changes made to a chain while it is recorded reach its trace log as records, in order, with the version each
/// made — so the log says what chain each trace ran on — in both formats and however the sink writes; a sink that
/// keeps no log ignores them; a malformed record is an error naming its line.
@Suite("Chain changes in the trace log")
struct ChainEditLogTests {
    @Test(
        arguments: [(TraceLogSink.Format.compact, true), (.compact, false), (.jsonLines, true), (.jsonLines, false)]
            as [(TraceLogSink.Format, Bool)]
    )
    func editsAreRecordedInOrderWithTheirVersions(format: TraceLogSink.Format, background: Bool) throws {
        let path = TestFiles.directory.appendingPathComponent("edits-\(UUID()).jsonl").path
        var options = TraceLogSink.Options()
        options.format = format
        options.writesInBackground = background
        let sink = try TraceLogSink(path: path, options: options)
        let chain = try Chain<Int, String>(
            "orders",
            handlers: [Handler("A") { _ in .pass }, Handler("B") { _ in .accept("b") }],
            recorder: Recorder(sink: sink)
        )
        try chain.send(1)
        try chain.insert(Handler("Audit") { _ in .pass }, at: .first)
        try chain.send(2)
        try chain.remove("A")
        let late = try chain.addRegistry("Late", at: .after("Audit"))
        try late.register(Handler("L1") { _ in .pass }, weight: 3)
        #expect(try late.deregister("nobody") == false)  // no change: no record
        try chain.link("Audit", to: "B")
        try chain.send(3)
        try sink.close()
        let reader = try TraceLogReader(path: path)
        let traces = try reader.readAll().traces
        // The version the chain was built at, then one more for each change.
        let built = try #require(traces.first?.chainVersion)
        #expect(traces.map(\.chainVersion) == [built, built + 1, built + 5])
        let edits = reader.chainEdits
        #expect(edits.map(\.kind) == [.insert, .remove, .insert, .register, .link])
        #expect(edits.map(\.version) == (1...5).map { built + $0 })
        #expect(edits.map(\.handler) == ["Audit", "A", "Late", "L1", "Audit"])
        #expect(edits.map(\.detail) == ["first", nil, "registry, after Audit", "in Late, weight 3", "next B"])
        #expect(edits.allSatisfy { $0.chain == "orders" && $0.time > 0 })
    }

    @Test func aMalformedRecordIsAnErrorNamingItsLine() {
        let log =
            TraceLogFormat.header + [0x0A] + Array(#"{"change":"explode","chain":"c","handler":"H","version":1}"#.utf8)
            + [0x0A]
        let error = #expect(throws: FormatError.self) { try TraceLogReader(bytes: log, name: "edits.jsonl").readAll() }
        #expect(error?.line == 2)
        #expect(error?.expected.hasPrefix("change to be one of insert, add, remove") == true)
    }
}
