public import ChainTrace
import ChainTraceJSON

/// Writes traces as Chrome trace-event JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open.
///
/// Each chain is a process and each command a track (a "thread") named after the command. On its track the
/// command is one complete (`X`) event, each hop a complete event nested inside it as the hops nested (hops that
/// ran at once in child tasks go on further tracks of the command's, "Kind id (2)", as a track's events must nest), with
/// `ts` and `dur` in microseconds from the first trace's start and `args` carrying position, decision, self time
/// (µs), and the reason and registry when there are any; an instant (`i`) event marks where the command was
/// accepted, fell off the end, or failed.
///
/// Streams: ``header``, then ``events(for:)`` per trace, then ``footer``; memory stays flat however long the log.
public struct ChromeTraceExport: Sendable {
    private var base: Int64?
    private var commands = 0
    /// Tracks ("threads") handed out so far: one a command, and one more for each hop that ran at once with a
    /// sibling (see ``events(for:)``).
    private var tracks = 0
    /// Where each hop of the trace being written goes, kept from trace to trace.
    private var hopTracks = HopTracks()
    private var processes: [String: Int] = [:]

    /// Starts an export.
    public init() {}

    /// The bytes that open the file.
    public static let header = Array(#"{"displayTimeUnit":"ns","traceEvents":["#.utf8) + [UInt8(ascii: "\n")]

    /// The bytes that close the file.
    public static let footer = Array("\n]}\n".utf8)

    /// The events of one more trace, each on its own line, with the separating commas a following trace needs.
    ///
    /// Written member by member in sorted key order — the bytes of writing each event as a JSON object with sorted
    /// keys (`ChromeEventsDifferentialTests`), without building one.
    public mutating func events(for trace: Trace) -> [UInt8] {
        let base = self.base ?? trace.startTime
        self.base = base
        var writer = JSONWriter()
        writer.reserveCapacity(256 * (trace.hops.count + 3))
        var first = commands == 0
        commands += 1
        func next() {
            if !first { writer.append(",\n") }
            first = false
        }
        func ids(pid: Int, tid: Int) {
            writer.append(#","pid":"#)
            writer.write(Int64(pid))
            writer.append(#","tid":"#)
            writer.write(Int64(tid))
        }
        func metadata(_ kind: String, _ name: String, pid: Int, tid: Int) {
            next()
            writer.append(#"{"args":{"name":"#)
            writer.write(name)
            writer.append(#"},"name":"#)
            writer.write(kind)
            writer.append(#","ph":"M""#)
            ids(pid: pid, tid: tid)
            writer.append(byte: UInt8(ascii: "}"))
        }
        let pid: Int
        if let known = processes[trace.chain] {
            pid = known
        } else {
            pid = processes.count + 1
            processes[trace.chain] = pid
            metadata("process_name", trace.chain, pid: pid, tid: 0)
        }
        tracks += 1
        let tid = tracks
        let name = trace.commandKind + (trace.commandID.map { " \($0)" } ?? "")
        metadata("thread_name", name, pid: pid, tid: tid)
        // Times from the log may be anything an Int64 holds: every sum saturates rather than overflow.
        let start = trace.startTime.saturatingSubtract(base)
        func microseconds<Value: BinaryInteger>(_ nanoseconds: Value) -> Double { Double(nanoseconds) / 1000 }
        /// A complete event after its `args`: category, duration, name, phase, ids and start.
        func complete(category: String, duration: Double, name: String, at time: Double, tid: Int) {
            writer.append(#","cat":"#)
            writer.write(category)
            writer.append(#","dur":"#)
            writer.write(duration)
            writer.append(#","name":"#)
            writer.write(name)
            writer.append(#","ph":"X""#)
            ids(pid: pid, tid: tid)
            writer.append(#","ts":"#)
            writer.write(time)
            writer.append(byte: UInt8(ascii: "}"))
        }
        next()
        writer.append(#"{"args":{"chain":"#)
        writer.write(trace.chain)
        writer.append(#","entry":"#)
        writer.write(trace.entry)
        writer.write(trace.commandID, after: #","id":"#)
        writer.append(#","outcome":"#)
        writer.write("\(trace.outcome)")
        writer.append(byte: UInt8(ascii: "}"))
        let hops = trace.hops
        // Covering every hop, also of a log whose times do not add up: each hop's slice lies inside the command's.
        complete(
            category: "command",
            duration: microseconds(trace.duration(covering: hops)),
            name: name,
            at: microseconds(start),
            tid: tid
        )
        // Each hop on the track `lanes` gives it: 0, the command's, or one more of the command's, "Kind id (2)".
        var tids = [tid]
        hopTracks.assign(hops)
        for index in hops.indices {
            let (hop, lane) = (hops[index], hopTracks.lanes[index])
            if lane == tids.count {
                tracks += 1
                tids.append(tracks)
                metadata("thread_name", "\(name) (\(tids.count))", pid: pid, tid: tracks)
            }
            next()
            writer.append(#"{"args":{"decision":"#)
            writer.write(hop.decision.rawValue)
            writer.append(#","position":"#)
            writer.write(Int64(clamping: hop.position))
            writer.write(hop.reason, after: #","reason":"#)
            writer.write(hop.registry, after: #","registry":"#)
            writer.append(#","selfUs":"#)
            writer.write(microseconds(hop.selfDuration))
            writer.append(byte: UInt8(ascii: "}"))
            complete(
                category: "hop",
                duration: microseconds(hop.inclusiveDuration),
                name: hop.handler,
                at: microseconds(start.saturatingAdd(Int64(clamping: hop.startOffset))),
                tid: tids[lane]
            )
        }
        let ending = Self.ending(of: trace)
        next()
        writer.append(#"{"name":"#)
        writer.write(ending.name)
        writer.append(#","ph":"i""#)
        writer.append(#","pid":"#)
        writer.write(Int64(pid))
        writer.append(#","s":"t","tid":"#)
        writer.write(Int64(tid))
        writer.append(#","ts":"#)
        writer.write(microseconds(start.saturatingAdd(Int64(clamping: ending.at))))
        writer.append(byte: UInt8(ascii: "}"))
        return writer.bytes
    }

    /// The track of each of a trace's hops, numbered from 0 (the command's own) as they are first used: a track's
    /// events must nest, so each hop goes on the track of the hop it ran inside (``HopNesting``), unless a sibling
    /// that ran at once (a stage that fanned out to child tasks) is still open there — then on the first other
    /// track with nothing open, or on a new one.
    package static func lanes(of hops: [Hop]) -> [Int] {
        var tracks = HopTracks()
        tracks.assign(hops)
        return tracks.lanes
    }

    /// Assigns hops to tracks (``lanes(of:)``), keeping its arrays from trace to trace.
    struct HopTracks: Sendable {
        private var nesting = HopNesting()
        /// Each track's open hops, innermost last.
        private var open: [[(index: Int, end: UInt64)]] = [[]]
        /// The track of each hop of the last trace assigned.
        private(set) var lanes: [Int] = []

        mutating func assign(_ hops: [Hop]) {
            nesting.place(hops)
            lanes.removeAll(keepingCapacity: true)
            // Hops that nest as calls do (every trace of a chain with no fan-out) fit on the command's track.
            if nesting.nestsAsCalls {
                lanes.append(contentsOf: repeatElement(0, count: hops.count))
                return
            }
            for lane in open.indices { open[lane].removeAll(keepingCapacity: true) }
            var used = 1
            // Plain loops: closures capturing these arrays would box them, with a run-time exclusivity check an access.
            for index in hops.indices {
                let (start, inclusive) = (hops[index].startOffset, hops[index].inclusiveDuration)
                // Each track's open hops nest (a hop goes on a track only inside its top one, or on an empty one), so
                // the ones over are at the top.
                for lane in 0..<used {
                    while let last = open[lane].last, last.end <= start { open[lane].removeLast() }
                }
                var lane = 0
                if let parent = nesting.parents[index] { lane = lanes[parent] }
                if open[lane].last?.index != nesting.parents[index] {
                    lane = used
                    for other in 1..<used where open[other].isEmpty {
                        lane = other
                        break
                    }
                    if lane == used {
                        used += 1
                        if open.count < used { open.append([]) }
                    }
                }
                open[lane].append((index, start.saturatingAdd(inclusive)))
                lanes.append(lane)
            }
        }
    }

    /// The instant event that ends a command's track: what happened, and when, from the command's start.
    package static func ending(of trace: Trace) -> (name: String, at: UInt64) {
        switch trace.outcome {
        case .accepted(let handler):
            let hop = trace.hops.last { $0.handler == handler && $0.decision == .accepted }
            return (
                "accepted by \(HandlerNameText.of(handler))",
                (hop?.startOffset ?? 0).saturatingAdd(hop?.inclusiveDuration ?? trace.duration)
            )
        case .fellOffTheEnd:
            return ("fell off the end", trace.duration)
        case .failed(let handler, let error):
            return ("failed at \(HandlerNameText.of(handler)): \(error)", trace.duration)
        }
    }
}
