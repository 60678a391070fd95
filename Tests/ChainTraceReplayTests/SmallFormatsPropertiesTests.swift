import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Smaller promises of the formats module, on generated values: durations shown never go down as times go up (a
/// table sorted by time reads sorted); a command built in Swift holds exactly what it was given and equals another
/// exactly when its parts do; Chrome exports number the chains' processes in the order first met and place every
/// command relative to the first one's start, earlier ones included; a torn tail says its line and size.
@Suite("Smaller formats properties")
struct SmallFormatsPropertiesTests {
    @Test(arguments: SeededGenerator.seeds(100))
    func shownDurationsNeverGoDownAsTimesGoUp(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let magnitude = Int64.random(in: 0...15, using: &random)
        var scale: Int64 = 1
        for _ in 0..<magnitude { scale *= 10 }
        let a = Int64.random(in: 0...(scale * 9), using: &random)
        let b = a + Int64.random(in: 0...max(1, scale), using: &random)
        let shownA = try #require(DurationText.nanoseconds(DurationText.format(nanoseconds: a)))
        let shownB = try #require(DurationText.nanoseconds(DurationText.format(nanoseconds: b)))
        #expect(
            shownA <= shownB,
            "seed \(seed): \(a) shows as \(DurationText.format(nanoseconds: a)), \(b) as \(DurationText.format(nanoseconds: b))"
        )
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func aCommandHoldsItsPartsAndEqualityFollowsThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let kind = random.hostileName()
        let id: String? = random.chance(0.5) ? random.hostileName() : nil
        let entry: String? = random.chance(0.5) ? random.hostileName() : nil
        let fields = GeneratedJSON.value(&random)
        let command = JSONCommand(kind: kind, id: id, entry: entry, fields: fields)
        #expect(
            command.kind == kind && command.id == id && command.entry == entry && command.fields == fields,
            "seed \(seed)"
        )
        #expect(command == JSONCommand(kind: kind, id: id, entry: entry, fields: fields), "seed \(seed)")
        #expect(command != JSONCommand(kind: kind + "x", id: id, entry: entry, fields: fields), "seed \(seed)")
        #expect(JSONCommand().kind == "Command" && JSONCommand().fields == [:], "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func chromeProcessesAreNumberedInOrderAndTimesCountFromTheFirstCommand(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chains = (0..<Int.random(in: 1...4, using: &random)).map { "chain\($0)" }
        let traces = (0..<Int.random(in: 1...12, using: &random)).map { index in
            Trace(
                id: UInt64(index),
                commandKind: "K",
                entry: "A",
                chain: random.pick(chains),
                startTime: Int64.random(in: -1_000_000...1_000_000, using: &random),
                hops: [],
                outcome: .fellOffTheEnd,
                duration: 1_000
            )
        }
        var export = ChromeTraceExport()
        var bytes = ChromeTraceExport.header
        for trace in traces { bytes += export.events(for: trace) }
        bytes += ChromeTraceExport.footer
        guard case .array(let events)? = try JSONDocument(bytes: bytes, file: "t.json").root["traceEvents"] else {
            Issue.record("seed \(seed)")
            return
        }
        var firstMet: [String] = []
        for trace in traces where !firstMet.contains(trace.chain) { firstMet.append(trace.chain) }
        let processes = events.filter { $0["name"] == "process_name" }
        #expect(processes.map { $0["args"]?["name"]?.stringValue ?? "" } == firstMet, "seed \(seed)")
        #expect(processes.map { $0["pid"] } == firstMet.indices.map { .integer(Int64($0 + 1)) }, "seed \(seed)")
        let commands = events.filter { $0["cat"] == "command" }
        for (trace, event) in zip(traces, commands) {
            #expect(event["ts"]?.doubleValue == Double(trace.startTime - traces[0].startTime) / 1000, "seed \(seed)")
        }
    }

    @Test func aTornTailSaysItsLineAndSize() throws {
        let cut = Array(#"{"chain":"c","#.utf8)
        let log = try TraceLogReader(bytes: TraceLogFormat.header + [0x0A] + cut).readAll()
        let torn = try #require(log.tornTail)
        #expect(torn.line == 2 && torn.byteCount == cut.count, "\(torn)")
        #expect(torn.description.contains("line 2") && torn.description.contains("\(cut.count) bytes"), "\(torn)")
    }
}
