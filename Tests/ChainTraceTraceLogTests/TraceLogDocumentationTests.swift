import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `Docs/TraceLogFormat.md` is the format's contract for tools in other languages. The fields its table lists
/// are exactly the fields the writer writes (a trace with every optional field present, failed or accepted), no
/// more and no fewer; and optional fields are left out, not written as `null`, as the page says.
@Suite("The trace log page matches the writer")
struct TraceLogDocumentationTests {
    /// The field paths of the page's table: the first column's code spans.
    static func documentedFields() throws -> Set<String> {
        let page = try String(
            contentsOf: BuiltProduct.packageRoot.appendingPathComponent("Docs/TraceLogFormat.md"),
            encoding: .utf8
        )
        var fields = Set<String>()
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            fields.insert(String(cell))
        }
        return fields
    }

    /// The field paths a written trace has, named as the page names them (`hops[i].…`).
    static func writtenFields(_ value: JSONValue, prefix: String = "") -> Set<String> {
        guard case .object(let members) = value else { return [] }
        var fields = Set<String>()
        for (key, member) in members {
            let path = prefix + key
            switch (key, member) {
            case ("payload", _): fields.insert(path)
            case ("hops", .array(let hops)):
                for hop in hops { fields.formUnion(writtenFields(hop, prefix: "hops[i].")) }
            case (_, .object):
                fields.formUnion(writtenFields(member, prefix: path + "."))
            default:
                fields.insert(path)
            }
        }
        return fields
    }

    @Test func everyDocumentedFieldIsWrittenAndNoOther() throws {
        let outer = Hop(
            handler: "O",
            position: 0,
            decision: .passed,
            startOffset: 0,
            inclusiveDuration: 3,
            selfDuration: 1
        )
        let hop = Hop(
            handler: "A",
            position: 1,
            decision: .failed,
            reason: "broke",
            registry: "R",
            parent: 0,
            startOffset: 1,
            inclusiveDuration: 2,
            selfDuration: 1
        )
        let failed = Trace(
            id: 1,
            commandKind: "K",
            commandID: "c1",
            payload: ["n": 1],
            entry: "O",
            chain: "c",
            chainVersion: 3,
            startTime: 5,
            hops: [outer, hop],
            outcome: .failed(at: "A", error: "broke"),
            duration: 3,
            traceParent: TraceParent(header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        )
        let written = Self.writtenFields(TraceLogFormat.value(of: failed))
        let documented = try Self.documentedFields()
        // The header's own members are described above the table, not in it.
        let header = Set(["format", "version"])
        #expect(
            written.subtracting(documented).isEmpty,
            "written but not documented: \(written.subtracting(documented))"
        )
        #expect(
            documented.subtracting(written).subtracting(header).isEmpty,
            "documented but not written: \(documented.subtracting(written))"
        )
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func optionalFieldsAreLeftOutNotNull(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let trace = Trace(
            id: 1,
            commandKind: "K",
            commandID: random.chance(0.5) ? "c" : nil,
            payload: random.chance(0.5) ? ["n": 1] : nil,
            entry: "A",
            chain: "c",
            hops: [
                Hop(
                    handler: "A",
                    position: 0,
                    decision: .passed,
                    reason: random.chance(0.5) ? "r" : nil,
                    registry: random.chance(0.5) ? "R" : nil,
                    inclusiveDuration: 1,
                    selfDuration: 1
                )
            ],
            outcome: .fellOffTheEnd,
            duration: 1,
            traceParent: random.chance(0.5)
                ? TraceParent(traceID: String(repeating: "ab", count: 16), spanID: "0123456789abcdef") : nil
        )
        let line = String(decoding: TraceLogFormat.encode(trace), as: UTF8.self)
        #expect(!line.contains("null"), "seed \(seed): \(line)")
        #expect(
            line.contains(#""id":"c""#) == (trace.commandID != nil)
                && line.contains(#""payload""#) == (trace.payload != nil),
            "seed \(seed)"
        )
        #expect(line.contains(#""traceparent""#) == (trace.traceParent != nil), "seed \(seed)")
        #expect(
            line.contains(#""reason""#) == (trace.hops[0].reason != nil)
                && line.contains(#""registry""#) == (trace.hops[0].registry != nil),
            "seed \(seed)"
        )
    }

    /// The page's version 3 example is a log the reader reads and the writer writes byte for byte, and the sizes
    /// it quotes for the first coin are the real ones.
    @Test func theCompactExampleIsWhatTheWriterWritesAndItsSizesAreTrue() throws {
        let page = try String(
            contentsOf: BuiltProduct.packageRoot.appendingPathComponent("Docs/TraceLogFormat.md"),
            encoding: .utf8
        )
        let start = try #require(page.range(of: "```jsonl\n"))
        let end = try #require(page.range(of: "```", range: start.upperBound..<page.endIndex))
        let example = Array(page[start.upperBound..<end.lowerBound].utf8)
        let reader = TraceLogReader(bytes: example, name: "example.jsonl")
        let traces = try reader.readAll().traces
        #expect(traces.count == 2 && reader.droppedTraces == 3)
        var written = CompactTraceLogFormat.header + [0x0A]
        var encoder = CompactTraceLogEncoder()
        encoder.encode(traces[0], into: &written)
        let firstCoin = written.count - CompactTraceLogFormat.header.count - 1
        encoder.encodeDropped(count: 3, into: &written)
        encoder.encode(traces[1], into: &written)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: example, as: UTF8.self))
        let version1 = TraceLogFormat.encode(traces[0]).count + 1
        #expect(
            page.contains("in \(firstCoin) bytes instead of \(version1)"),
            "the first coin: \(firstCoin) bytes, \(version1) in version 1"
        )
    }
}
