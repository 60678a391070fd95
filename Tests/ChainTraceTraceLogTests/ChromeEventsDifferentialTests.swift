import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// `export --to chrome`'s events, written member by member, against the plain way — each event's members handed
/// to the object writer and its args built as JSON objects — on the generated traces of the row export's test
/// (hostile names, ids or none, reasons, registries, every outcome, hopless traces, times at the limits) from
/// several chains in sequence: the same bytes (the ending event's name and time from one shared function).
@Suite("Chrome events against JSON objects")
struct ChromeEventsDifferentialTests {
    /// The plain model: the export as it was written before.
    struct PlainEvents {
        private var base: Int64?
        private var commands = 0
        private var tracks = 0
        private var processes: [String: Int] = [:]

        mutating func events(for trace: Trace) -> [UInt8] {
            let base = self.base ?? trace.startTime
            self.base = base
            var writer = JSONWriter()
            var first = commands == 0
            commands += 1
            func event(_ members: [(String, (inout JSONWriter) -> Void)]) {
                if !first { writer.append(",\n") }
                first = false
                writer.writeObject(members.map { (key: $0.0, value: $0.1) }) { writer, write in write(&writer) }
            }
            let pid: Int
            if let known = processes[trace.chain] {
                pid = known
            } else {
                pid = processes.count + 1
                processes[trace.chain] = pid
                event(Self.metadata("process_name", trace.chain, pid: pid, tid: 0))
            }
            tracks += 1
            let tid = tracks
            let name = trace.commandKind + (trace.commandID.map { " \($0)" } ?? "")
            event(Self.metadata("thread_name", name, pid: pid, tid: tid))
            // Times from the log may be anything an Int64 holds: every sum saturates rather than overflow.
            let start = trace.startTime.saturatingSubtract(base)
            func microseconds<Value: BinaryInteger>(_ nanoseconds: Value) -> Double { Double(nanoseconds) / 1000 }
            event([
                (
                    "args",
                    { writer in
                        writer.write(
                            JSONValue.object(
                                [
                                    "chain": .string(trace.chain), "entry": .string(trace.entry),
                                    "outcome": .string("\(trace.outcome)"),
                                ].merging(trace.commandID.map { ["id": JSONValue.string($0)] } ?? [:]) { first, _ in
                                    first
                                }
                            )
                        )
                    }
                ),
                ("cat", { $0.write("command") }),
                // Covering every hop, however the log's times add up.
                (
                    "dur",
                    {
                        $0.write(
                            microseconds(
                                trace.hops.map { $0.startOffset.saturatingAdd($0.inclusiveDuration) }.reduce(
                                    trace.duration,
                                    max
                                )
                            )
                        )
                    }
                ),
                ("name", { $0.write(name) }),
                ("ph", { $0.write("X") }),
                ("pid", { $0.write(Int64(pid)) }),
                ("tid", { $0.write(Int64(tid)) }),
                ("ts", { $0.write(microseconds(start)) }),
            ])
            // The tracks hops go on (ChromeTraceExport.lanes, tested on its own in HopNestingTests); here the
            // events' bytes are the subject.
            var tids = [tid]
            for (hop, lane) in zip(trace.hops, ChromeTraceExport.lanes(of: trace.hops)) {
                if lane == tids.count {
                    tracks += 1
                    tids.append(tracks)
                    event(Self.metadata("thread_name", "\(name) (\(tids.count))", pid: pid, tid: tracks))
                }
                var args: [String: JSONValue] = [
                    "position": .integer(Int64(clamping: hop.position)), "decision": .string(hop.decision.rawValue),
                    "selfUs": .double(microseconds(hop.selfDuration)),
                ]
                if let reason = hop.reason { args["reason"] = .string(reason) }
                if let registry = hop.registry { args["registry"] = .string(registry) }
                event([
                    ("args", { $0.write(JSONValue.object(args)) }),
                    ("cat", { $0.write("hop") }),
                    ("dur", { $0.write(microseconds(hop.inclusiveDuration)) }),
                    ("name", { $0.write(hop.handler) }),
                    ("ph", { $0.write("X") }),
                    ("pid", { $0.write(Int64(pid)) }),
                    ("tid", { $0.write(Int64(tids[lane])) }),
                    ("ts", { $0.write(microseconds(start.saturatingAdd(Int64(clamping: hop.startOffset)))) }),
                ])
            }
            let ending = ChromeTraceExport.ending(of: trace)
            event([
                ("name", { $0.write(ending.name) }),
                ("ph", { $0.write("i") }),
                ("pid", { $0.write(Int64(pid)) }),
                ("s", { $0.write("t") }),
                ("tid", { $0.write(Int64(tid)) }),
                ("ts", { $0.write(microseconds(start.saturatingAdd(Int64(clamping: ending.at)))) }),
            ])
            return writer.bytes
        }

        private static func metadata(_ kind: String, _ name: String, pid: Int, tid: Int) -> [(
            String, (inout JSONWriter) -> Void
        )] {
            [
                ("args", { $0.write(JSONValue.object(["name": .string(name)])) }),
                ("name", { $0.write(kind) }),
                ("ph", { $0.write("M") }),
                ("pid", { $0.write(Int64(pid)) }),
                ("tid", { $0.write(Int64(tid)) }),
            ]
        }
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func eventsAreTheSortedObjectsBytes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var export = ChromeTraceExport()
        var plain = PlainEvents()
        for index in 0..<Int.random(in: 1...20, using: &random) {
            let trace = HopRowsDifferentialTests.trace(&random, id: UInt64(index))
            let written = export.events(for: trace)
            let expected = plain.events(for: trace)
            #expect(
                written == expected,
                "seed \(seed), trace \(index): \(String(decoding: written.prefix(300), as: UTF8.self))"
            )
        }
    }
}
