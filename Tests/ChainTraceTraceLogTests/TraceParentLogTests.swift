import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// The span a command ran under (``TraceParent``, W3C's `traceparent`): read only from a valid header, kept by both
/// log versions, refused where it is malformed or its segment's version has no such member, and made the parent of
/// the command's span by the OTLP export. On generated ids and generated damage.
@Suite("A trace's parent span, in logs and exports")
struct TraceParentLogTests {
    @Test(arguments: SeededGenerator.seeds(100))
    func aValidHeaderReadsBackAndAnyDamageIsRefused(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traceID = random.hexDigits(32, mixedCase: true)
        let spanID = random.hexDigits(16, mixedCase: true)
        let flags = random.hexDigits(2)
        let header = "00-\(traceID)-\(spanID)-\(flags)"
        let parent = try #require(TraceParent(header: header), "seed \(seed)")
        #expect(parent.traceID == traceID.lowercased() && parent.spanID == spanID.lowercased(), "seed \(seed)")
        #expect(TraceParent(header: parent.header) == parent, "seed \(seed)")
        #expect(TraceParent(traceID: traceID, spanID: spanID) == parent, "seed \(seed)")
        // A later version may add fields after a dash; version 00 may not, nor may the unknown version ff.
        #expect(TraceParent(header: "01-\(traceID)-\(spanID)-\(flags)-more") == parent, "seed \(seed)")
        #expect(TraceParent(header: header + "-more") == nil, "seed \(seed)")
        #expect(TraceParent(header: "ff-\(traceID)-\(spanID)-\(flags)") == nil, "seed \(seed)")
        // One character changed to a non-hex one, removed, or added: never a parent.
        var bytes = Array(header.utf8)
        let index = Int.random(in: 0..<bytes.count, using: &random)
        let damaged: [UInt8]
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            bytes[index] = bytes[index] == UInt8(ascii: "-") ? UInt8(ascii: "0") : random.pick(Array("-gZ ~".utf8))
            damaged = bytes
        case 1: damaged = Array(bytes[..<index] + bytes[(index + 1)...])
        default: damaged = Array(bytes[..<index] + [UInt8(ascii: "a")] + bytes[index...])
        }
        #expect(TraceParent(header: String(decoding: damaged, as: UTF8.self)) == nil, "seed \(seed) index \(index)")
        #expect(TraceParent(traceID: String(repeating: "0", count: 32), spanID: spanID) == nil)
        #expect(TraceParent(traceID: traceID, spanID: String(repeating: "0", count: 16)) == nil)
    }

    /// A trace with a parent, as a recorded request's.
    static func trace(parent: TraceParent?) -> Trace {
        Trace(
            id: 9,
            commandKind: "GET /users/{id}",
            entry: "Auth",
            chain: "api",
            startTime: 1_000,
            hops: [
                Hop(handler: "Auth", position: 0, decision: .passed, inclusiveDuration: 30, selfDuration: 10),
                Hop(
                    handler: "GET /users/{id}",
                    position: 1,
                    decision: .accepted,
                    parent: 0,
                    startOffset: 10,
                    inclusiveDuration: 20,
                    selfDuration: 20
                ),
            ],
            outcome: .accepted(by: "GET /users/{id}"),
            duration: 30,
            traceParent: parent
        )
    }

    static let parent = TraceParent(header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")!

    /// A compact log of `trace` under a header of `version`: its trace line is the last.
    static func compactLog(_ trace: Trace, version: Int) -> (bytes: [UInt8], traceLine: String) {
        var body: [UInt8] = []
        var encoder = CompactTraceLogEncoder()
        encoder.encode(trace, into: &body)
        let header = Array("{\"format\":\"chaintrace-trace-log\",\"version\":\(version)}\n".utf8)
        let lastLine = body.dropLast().split(separator: 0x0A).last.map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (header + body, lastLine)
    }

    @Test func aCompactSegmentBeforeVersion4RefusesTheMemberWhereItIs() throws {
        let trace = Self.trace(parent: Self.parent)
        let (version4, _) = Self.compactLog(trace, version: 4)
        #expect(try TraceLogReader(bytes: version4).readAll().traces.map(\.traceParent) == [Self.parent])
        let (version3, line) = Self.compactLog(trace, version: 3)
        let column = try #require(line.range(of: "\"traceparent\":")).upperBound.utf16Offset(in: line) + 1
        let errors = [true, false].map { CompactExtrasMemberTests.readError(version3, fastPath: $0) }
        #expect(errors[0] != nil && errors[0] == errors[1], "both decoders refuse it the same way")
        let error = try #require(errors[0])
        #expect(error.line == 3 && error.column == column, "\(error)")
        #expect(error.expected.contains("version 4's") && error.found == "the member \"traceparent\"", "\(error)")
    }

    @Test(arguments: ["00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "4bf92f35", "", "ff-x"])
    func aMalformedTraceparentIsRefusedInEitherVersionOnBothPaths(value: String) throws {
        let text = "\"\(value)\""
        let (compact, _) = Self.compactLog(Self.trace(parent: Self.parent), version: 4)
        let damagedCompact = Array(
            String(decoding: compact, as: UTF8.self).replacingOccurrences(of: "\"\(Self.parent.header)\"", with: text)
                .utf8
        )
        let version1 =
            TraceLogFormat.header + [0x0A]
            + Array(
                String(decoding: TraceLogFormat.encode(Self.trace(parent: Self.parent)), as: UTF8.self)
                    .replacingOccurrences(of: "\"\(Self.parent.header)\"", with: text).utf8
            ) + [0x0A]
        for log in [damagedCompact, version1] {
            let errors = [true, false].map { CompactExtrasMemberTests.readError(log, fastPath: $0) }
            let error = try #require(errors[0], "value \(value)")
            #expect(errors[1] == error, "both decoders refuse it the same way")
            #expect(error.expected.contains("W3C traceparent"), "\(error)")
            #expect(error.found == JSONValue.string(value).summary, "\(error)")
        }
    }

    @Test func theOTLPExportPutsTheCommandUnderItsParentSpan() throws {
        var export = OTLPTraceExport()
        let bytes =
            OTLPTraceExport.header + export.spans(for: Self.trace(parent: Self.parent))
            + export.spans(for: Self.trace(parent: nil)) + OTLPTraceExport.footer
        let request = try JSONParser.parse(String(decoding: bytes, as: UTF8.self))
        func first(_ value: JSONValue?) -> JSONValue? {
            if case .array(let elements)? = value { return elements.first }
            return nil
        }
        guard case .array(let spans)? = first(first(request["resourceSpans"])?["scopeSpans"])?["spans"] else {
            Issue.record("no spans in \(String(decoding: bytes, as: UTF8.self))")
            return
        }
        #expect(spans.count == 6)
        let withParent = Array(spans[0..<3])
        let without = Array(spans[3..<6])
        // In the request span's trace, the command's span its child, the hops under the command's span.
        #expect(withParent.allSatisfy { $0["traceId"] == .string(Self.parent.traceID) })
        #expect(withParent[0]["parentSpanId"] == .string(Self.parent.spanID))
        #expect(withParent[1]["parentSpanId"] == withParent[0]["spanId"])
        #expect(withParent[2]["parentSpanId"] == withParent[1]["spanId"])
        // Without one, a trace of its own, the command's span at its top.
        #expect(without[0]["parentSpanId"] == nil && without[0]["traceId"] != .string(Self.parent.traceID))
        #expect(without.allSatisfy { $0["traceId"] == without[0]["traceId"] })
    }
}
