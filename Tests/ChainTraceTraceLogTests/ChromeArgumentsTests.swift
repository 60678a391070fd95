import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// What Perfetto shows for each hop of generated traces: its slice carries the hop's position, decision, self time
/// in microseconds, and its reason and registry when it has them; its start and length are the hop's, in
/// microseconds from the first trace; the command's slice says its chain, entry, outcome and id; and the marker
/// where it ended names the outcome.
@Suite("Chrome trace arguments")
struct ChromeArgumentsTests {
    @Test(arguments: SeededGenerator.seeds(40))
    func everyHopSliceCarriesItsHop(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let start = Int64.random(in: 0...1_000_000_000, using: &random)
        let hops = (0..<Int.random(in: 1...5, using: &random)).map { position in
            Hop(
                handler: "H\(position)",
                position: position,
                decision: random.pick(Decision.allCases),
                reason: random.chance(0.5) ? random.hostileName() : nil,
                registry: random.chance(0.3) ? "R" : nil,
                startOffset: UInt64(position * 1_000),
                inclusiveDuration: UInt64.random(in: 1...999, using: &random),
                selfDuration: UInt64.random(in: 1...999, using: &random)
            )
        }
        let trace = Trace(
            id: 1,
            commandKind: "K",
            commandID: random.hostileName(),
            entry: "H0",
            chain: random.hostileName(),
            startTime: start,
            hops: hops,
            outcome: .fellOffTheEnd,
            duration: UInt64(hops.count * 1_000)
        )
        var export = ChromeTraceExport()
        let bytes = ChromeTraceExport.header + export.events(for: trace) + ChromeTraceExport.footer
        guard case .array(let events)? = try JSONDocument(bytes: bytes, file: "t.json").root["traceEvents"] else {
            Issue.record("seed \(seed): no events")
            return
        }
        let slices = events.filter { $0["ph"] == "X" }
        guard let command = slices.first(where: { $0["cat"] == "command" }) else {
            Issue.record("seed \(seed): no command slice")
            return
        }
        #expect(command["args"]?["chain"] == .string(trace.chain) && command["args"]?["entry"] == "H0", "seed \(seed)")
        #expect(
            command["args"]?["id"] == .string(trace.commandID!) && command["args"]?["outcome"] == "fell off the end",
            "seed \(seed)"
        )
        #expect(
            command["ts"]?.doubleValue == 0 && command["dur"]?.doubleValue == Double(trace.duration) / 1000,
            "seed \(seed)"
        )
        for hop in hops {
            guard let slice = slices.first(where: { $0["name"] == .string(hop.handler) }) else {
                Issue.record("seed \(seed): no slice for \(hop.handler)")
                continue
            }
            let args = slice["args"]
            #expect(
                args?["position"] == .integer(Int64(hop.position))
                    && args?["decision"] == .string(hop.decision.rawValue),
                "seed \(seed)"
            )
            #expect(
                args?["selfUs"]?.doubleValue == Double(hop.selfDuration) / 1000,
                "seed \(seed): \(String(describing: args))"
            )
            #expect(args?["reason"] == hop.reason.map { .string($0) }, "seed \(seed)")
            #expect(args?["registry"] == hop.registry.map { .string($0) }, "seed \(seed)")
            #expect(
                slice["ts"]?.doubleValue == Double(hop.startOffset) / 1000
                    && slice["dur"]?.doubleValue == Double(hop.inclusiveDuration) / 1000,
                "seed \(seed)"
            )
        }
        let markers = events.filter { $0["ph"] == "i" }
        #expect(markers.count == 1 && markers.first?["name"] == "fell off the end", "seed \(seed): \(markers)")
    }
}
