import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// The OTLP/JSON export's own promises, without Python: the streamed pieces make one JSON request; trace ids are
/// 32 hex digits, span ids 16, never all zero, unique where they must be; the same log gives the same ids; a
/// command's spans are its root and one per hop, every hop's parent a span of the same trace.
@Suite("OTLP export ids and structure")
struct OTLPTraceExportTests {
    static func request(_ traces: [Trace]) throws -> [JSONValue] {
        var export = OTLPTraceExport()
        var bytes = OTLPTraceExport.header
        for trace in traces { bytes += export.spans(for: trace) }
        bytes += OTLPTraceExport.footer
        let value = try JSONParser.parse(String(decoding: bytes, as: UTF8.self))
        guard case .array(let resources)? = value["resourceSpans"],
            case .array(let scopes)? = resources.first?["scopeSpans"],
            case .array(let spans)? = scopes.first?["spans"]
        else { return [] }
        return spans
    }

    static func isHex(_ text: String?, digits: Int) -> Bool {
        guard let text else { return false }
        return text.count == digits && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
            && text.contains { $0 != "0" }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func idsAreWellFormedUniqueAndStable(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = (0..<Int.random(in: 0...40, using: &random)).map { index in
            let hops = (0..<Int.random(in: 0...6, using: &random)).map { position in
                Hop(
                    handler: random.hostileName(),
                    position: position,
                    decision: .passed,
                    startOffset: UInt64(position) * 10,
                    inclusiveDuration: 10,
                    selfDuration: 10
                )
            }
            // Ids and starts repeat on purpose: traces from several processes.
            return Trace(
                id: UInt64(index % 3),
                commandKind: "K",
                entry: hops.first?.handler ?? "E",
                chain: "c",
                startTime: Int64(index % 2),
                hops: hops,
                outcome: .fellOffTheEnd,
                duration: 100
            )
        }
        let spans = try Self.request(traces)
        #expect(spans.count == traces.reduce(0) { $0 + $1.hops.count + 1 }, "seed \(seed)")
        #expect(try Self.request(traces) == spans, "seed \(seed): the same log, other ids")
        let byTrace = Dictionary(grouping: spans) { $0["traceId"]?.stringValue ?? "" }
        #expect(byTrace.count == traces.count, "seed \(seed): trace ids must differ per command")
        for (traceID, members) in byTrace {
            #expect(Self.isHex(traceID, digits: 32), "seed \(seed): \(traceID)")
            let ids = members.compactMap { $0["spanId"]?.stringValue }
            #expect(ids.allSatisfy { Self.isHex($0, digits: 16) } && Set(ids).count == members.count, "seed \(seed)")
            let roots = members.filter { $0["parentSpanId"] == nil }
            #expect(roots.count == 1, "seed \(seed)")
            #expect(
                members.allSatisfy { $0["parentSpanId"].map { ids.contains($0.stringValue ?? "") } ?? true },
                "seed \(seed)"
            )
        }
    }

    /// The command's span covers every hop's, also in a trace whose duration is shorter than its hops (a log
    /// written by hand): a span outside its parent is one most viewers misdraw.
    @Test(arguments: SeededGenerator.seeds(20))
    func theRootSpanCoversEveryHop(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = (0..<Int.random(in: 1...10, using: &random)).map { index in
            ExportPropertyTests.trace(
                &random,
                id: UInt64(index),
                nested: random.chance(0.5),
                addsUp: random.chance(0.3)
            )
        }
        let spans = try Self.request(traces)
        #expect(spans.count == traces.reduce(0) { $0 + 1 + $1.hops.count }, "seed \(seed)")
        func time(_ span: JSONValue, _ key: String) -> UInt64 { span[key]?.stringValue.flatMap { UInt64($0) } ?? 0 }
        var root: (start: UInt64, end: UInt64) = (0, 0)
        for span in spans {
            if span["parentSpanId"] == nil {
                root = (time(span, "startTimeUnixNano"), time(span, "endTimeUnixNano"))
                continue
            }
            #expect(
                time(span, "startTimeUnixNano") >= root.start && time(span, "endTimeUnixNano") <= root.end,
                "seed \(seed)"
            )
        }
    }

    @Test func stableHashIsSplitMix64() {
        // SplitMix64's published first outputs from state 0 (each call adds the golden gamma, then mixes).
        #expect(StableHash.mix(0) == 0xE220_A839_7B1D_CDAF)
        #expect(StableHash.mix(0x9E37_79B9_7F4A_7C15) == 0x6E78_9E6A_A1B9_65F4)
    }
}
