import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Behaviour of the formats module a user relies on, on generated inputs: a trace log replayed as a command
/// stream gives each trace's command exactly (kind, id, entry, payload); a handler type's factory receives its
/// definition's options exactly as written; Chrome exports give each chain one process and each command its own
/// named track; a log sink closed is closed — later traces are dropped and `flush` says so.
@Suite("Formats behaviour on generated inputs")
struct FormatsBehaviourTests {
    @Test(arguments: SeededGenerator.seeds(40))
    func aTraceLogReplayedAsAStreamGivesEachTracesCommand(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = (0..<Int.random(in: 1...12, using: &random)).map { index in
            Trace(
                id: UInt64(index),
                commandKind: random.hostileName(),
                commandID: random.chance(0.6) ? random.hostileName() : nil,
                payload: random.chance(0.8)
                    ? .object(["n": .integer(Int64(index)), "s": .string(random.hostileName())]) : nil,
                entry: random.hostileName(maximumLength: 4),
                chain: "c",
                hops: [Hop(handler: "A", position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
                outcome: .accepted(by: "A"),
                duration: 1
            )
        }
        let bytes = TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        let reader = CommandStreamReader(
            bytes: bytes,
            name: "log.jsonl",
            schema: random.chance(0.5) ? FieldSchema(names: ["n"]) : nil
        )
        var commands: [JSONCommand] = []
        while let (_, item) = try reader.next() {
            if case .command(let command) = item { commands.append(command) }
        }
        #expect(commands.count == traces.count, "seed \(seed)")
        for (command, trace) in zip(commands, traces) {
            #expect(
                command.kind == trace.commandKind && command.id == trace.commandID && command.entry == trace.entry,
                "seed \(seed)"
            )
            #expect(command.fields == (trace.payload ?? [:]), "seed \(seed)")
        }
        #expect(reader.commandsWithoutPayload == traces.filter { $0.payload == nil }.count, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func aFactoryReceivesTheOptionsAsWritten(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let options = JSONValue.object([
            "key": .string(random.hostileName()), "n": .integer(Int64.random(in: .min ... .max, using: &random)),
            "nested": .array([.bool(true), .null, .double(2.5)]),
        ])
        var writer = JSONWriter()
        writer.write(
            JSONValue.object([
                "chain": "c", "handlers": .array([.object(["name": "A", "type": "Configured", "options": options])]),
            ])
        )
        let definition = try ChainDefinition.load(bytes: writer.bytes, file: "c.json")
        let received = LockedBox()
        var types = HandlerTypes()
        types.register("Configured") { handler in
            received.set(handler.options)
            return Handler(handler.name) { _ in .pass }
        }
        _ = try definition.makeChain(types: types)
        #expect(received.get() == options, "seed \(seed): \(String(describing: received.get()))")
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func chromeExportsGiveEachChainAProcessAndEachCommandATrack(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chains = (0..<Int.random(in: 1...3, using: &random)).map { "chain\($0)" }
        let traces = (0..<Int.random(in: 1...12, using: &random)).map { index in
            Trace(
                id: UInt64(index),
                commandKind: "K",
                commandID: "c\(index)",
                entry: "A",
                chain: random.pick(chains),
                startTime: Int64(index) * 1_000,
                hops: [Hop(handler: "A", position: 0, decision: .passed, inclusiveDuration: 5, selfDuration: 5)],
                outcome: .fellOffTheEnd,
                duration: 5
            )
        }
        var export = ChromeTraceExport()
        var bytes = ChromeTraceExport.header
        for trace in traces { bytes += export.events(for: trace) }
        bytes += ChromeTraceExport.footer
        guard case .array(let events)? = try JSONDocument(bytes: bytes, file: "t.json").root["traceEvents"] else {
            Issue.record("seed \(seed): no events")
            return
        }
        let processes = events.filter { $0["name"] == "process_name" }
        let used = Set(traces.map(\.chain))
        #expect(
            Set(processes.compactMap { $0["args"]?["name"]?.stringValue }) == used && processes.count == used.count,
            "seed \(seed)"
        )
        let tracks = events.filter { $0["name"] == "thread_name" }
        #expect(tracks.count == traces.count, "seed \(seed)")
        #expect(
            tracks.compactMap { $0["args"]?["name"]?.stringValue } == traces.map { "K \($0.commandID!)" },
            "seed \(seed)"
        )
        // Each command's events are on its own track, in its chain's process.
        for (index, trace) in traces.enumerated() {
            let pid = processes.first { $0["args"]?["name"]?.stringValue == trace.chain }?["pid"]
            let mine = events.filter { $0["tid"] == .integer(Int64(index + 1)) && $0["name"] != "thread_name" }
            #expect(!mine.isEmpty && mine.allSatisfy { $0["pid"] == pid }, "seed \(seed): command \(index)")
        }
    }

    @Test func aClosedSinkDropsLaterTracesAndSaysSo() throws {
        let path = TestFiles.directory.appendingPathComponent("closed-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try TraceLogSink(path: path, bufferSize: 0)
        let trace = Trace(
            id: 1,
            commandKind: "K",
            entry: "A",
            chain: "c",
            hops: [],
            outcome: .fellOffTheEnd,
            duration: 0
        )
        sink.record(trace)
        try sink.close()
        sink.record(trace)
        #expect(sink.droppedCount == 1)
        #expect(try TraceLogReader.readAll(path: path).traces == [trace])
    }
}

/// A value set from a `@Sendable` closure and read after.
final class LockedBox: @unchecked Sendable {
    // Every access holds `lock`.
    private var value: JSONValue?
    private let lock = NSLock()

    func set(_ newValue: JSONValue?) { lock.withLock { value = newValue } }
    func get() -> JSONValue? { lock.withLock { value } }
}
