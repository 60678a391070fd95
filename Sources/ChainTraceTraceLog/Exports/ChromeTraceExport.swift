public import ChainTrace
import ChainTraceJSON

/// Writes traces as Chrome trace-event JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open.
///
/// Each chain is a process and each command a track (a "thread") named after the command. On its track the
/// command is one complete (`X`) event, each hop a complete event nested inside it as the hops nested, with
/// `ts` and `dur` in microseconds from the first trace's start and `args` carrying position, decision, self time
/// (µs), and the reason and registry when there are any; an instant (`i`) event marks where the command was
/// accepted, fell off the end, or failed.
///
/// Streams: ``header``, then ``events(for:)`` per trace, then ``footer``; memory stays flat however long the log.
public struct ChromeTraceExport: Sendable {
    private var base: Int64?
    private var commands = 0
    private var processes: [String: Int] = [:]

    /// Starts an export.
    public init() {}

    /// The bytes that open the file.
    public static let header = Array(#"{"displayTimeUnit":"ns","traceEvents":["#.utf8) + [UInt8(ascii: "\n")]

    /// The bytes that close the file.
    public static let footer = Array("\n]}\n".utf8)

    /// The events of one more trace, each on its own line, with the separating commas a following trace needs.
    public mutating func events(for trace: Trace) -> [UInt8] {
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
        let tid = commands
        let name = trace.commandKind + (trace.commandID.map { " \($0)" } ?? "")
        event(Self.metadata("thread_name", name, pid: pid, tid: tid))
        // Times from the log may be anything an Int64 holds: every sum saturates rather than overflow.
        let start = trace.startTime.saturatingSubtract(base)
        func microseconds<Value: BinaryInteger>(_ nanoseconds: Value) -> Double { Double(nanoseconds) / 1000 }
        event([
            ("args", { writer in
                writer.write(JSONValue.object([
                    "chain": .string(trace.chain), "entry": .string(trace.entry), "outcome": .string("\(trace.outcome)"),
                ].merging(trace.commandID.map { ["id": JSONValue.string($0)] } ?? [:]) { first, _ in first }))
            }),
            ("cat", { $0.write("command") }),
            ("dur", { $0.write(microseconds(trace.duration)) }),
            ("name", { $0.write(name) }),
            ("ph", { $0.write("X") }),
            ("pid", { $0.write(Int64(pid)) }),
            ("tid", { $0.write(Int64(tid)) }),
            ("ts", { $0.write(microseconds(start)) }),
        ])
        for hop in trace.hops {
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
                ("tid", { $0.write(Int64(tid)) }),
                ("ts", { $0.write(microseconds(start.saturatingAdd(Int64(clamping: hop.startOffset)))) }),
            ])
        }
        let ending: (name: String, at: UInt64)
        switch trace.outcome {
        case .accepted(let handler):
            let hop = trace.hops.last { $0.handler == handler && $0.decision == .accepted }
            ending = ("accepted by \(handler)", (hop?.startOffset ?? 0).saturatingAdd(hop?.inclusiveDuration ?? trace.duration))
        case .fellOffTheEnd:
            ending = ("fell off the end", trace.duration)
        case .failed(let handler, let error):
            ending = ("failed at \(handler): \(error)", trace.duration)
        }
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

    private static func metadata(_ kind: String, _ name: String, pid: Int, tid: Int) -> [(String, (inout JSONWriter) -> Void)] {
        [
            ("args", { $0.write(JSONValue.object(["name": .string(name)])) }),
            ("name", { $0.write(kind) }),
            ("ph", { $0.write("M") }),
            ("pid", { $0.write(Int64(pid)) }),
            ("tid", { $0.write(Int64(tid)) }),
        ]
    }
}
