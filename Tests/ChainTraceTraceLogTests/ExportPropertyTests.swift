import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Exports of generated traces — nested hops as instrumented chains record them, and flat ones as chains on
/// ChainTrace's types do, with hostile names, and with times that do not add up (a duration shorter than the hops):
/// the Chrome trace reads as JSON with one complete event per command and per hop, every hop inside its command and
/// its nesting parent; the folded stacks add up exactly to the self
/// times, with one frame per stack level and no name able to break a line or a frame.
@Suite("Exports of generated traces")
struct ExportPropertyTests {
    /// A trace whose hops either follow one another (flat) or each run inside the one before (nested); unless its
    /// times add up, its duration is shorter than its hops (a log written by hand or by another tool).
    static func trace(_ random: inout SeededGenerator, id: UInt64, nested: Bool, addsUp: Bool = true) -> Trace {
        let count = Int.random(in: 1...5, using: &random)
        let selfTimes = (0..<count).map { _ in UInt64.random(in: 0...5_000, using: &random) }
        var hops: [Hop] = []
        var offset: UInt64 = 0
        for position in 0..<count {
            let inclusive = nested ? selfTimes[position...].reduce(0, +) : selfTimes[position]
            hops.append(
                Hop(
                    handler: random.hostileName(maximumLength: 6) + "\(position)",
                    position: position,
                    decision: position == count - 1 ? .accepted : .passed,
                    startOffset: offset,
                    inclusiveDuration: inclusive,
                    selfDuration: selfTimes[position]
                )
            )
            offset += selfTimes[position]
        }
        return Trace(
            id: id,
            commandKind: "K",
            commandID: "c\(id)",
            entry: hops[0].handler,
            chain: random.hostileName(maximumLength: 5),
            startTime: 1_000_000 * Int64(id),
            hops: hops,
            outcome: .accepted(by: hops.last!.handler),
            duration: addsUp ? offset : UInt64.random(in: 0...(offset / 2), using: &random)
        )
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func chromeEventsNestAndFoldedStacksAddUp(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let nested = random.chance(0.5)
        let addsUp = random.chance(0.6)
        let traces = (0..<Int.random(in: 1...12, using: &random)).map {
            Self.trace(&random, id: UInt64($0), nested: nested, addsUp: addsUp)
        }

        var chrome = ChromeTraceExport()
        var bytes = ChromeTraceExport.header
        for trace in traces { bytes += chrome.events(for: trace) }
        bytes += ChromeTraceExport.footer
        let document = try JSONDocument(bytes: bytes, file: "trace.json")
        guard case .array(let events)? = document.root["traceEvents"] else {
            Issue.record("seed \(seed): no traceEvents")
            return
        }
        let complete = events.filter { $0["ph"]?.stringValue == "X" }
        #expect(complete.count == traces.count + traces.reduce(0) { $0 + $1.hops.count }, "seed \(seed)")
        #expect(events.filter { $0["ph"]?.stringValue == "i" }.count == traces.count, "seed \(seed)")
        // On each track, every hop lies within its command's event.
        for (index, trace) in traces.enumerated() {
            let track = complete.filter { $0["tid"] == .integer(Int64(index + 1)) }
            guard let command = track.first(where: { $0["cat"]?.stringValue == "command" }),
                let start = command["ts"]?.doubleValue, let duration = command["dur"]?.doubleValue
            else {
                Issue.record("seed \(seed): no command event for \(index)")
                continue
            }
            let hops = track.filter { $0["cat"]?.stringValue != "command" }
            #expect(hops.count == trace.hops.count, "seed \(seed)")
            for hop in hops {
                let hopStart = hop["ts"]?.doubleValue ?? -1
                let hopDuration = hop["dur"]?.doubleValue ?? -1
                #expect(
                    hopStart >= start - 0.001 && hopStart + hopDuration <= start + duration + 0.001,
                    "seed \(seed): a hop outside its command"
                )
            }
            #expect(
                Set(hops.compactMap { $0["name"]?.stringValue }) == Set(trace.hops.map(\.handler)),
                "seed \(seed): names changed"
            )
        }

        var folded = FoldedStacksExport()
        for trace in traces { folded.add(trace) }
        // Split as flame-graph tools do, on bytes: a name starting with a combining mark would join a `;` or a
        // newline in one Swift Character.
        let text = Array(folded.text(unit: .nanoseconds).utf8)
        #expect(text.last == 0x0A, "seed \(seed)")
        var total: UInt64 = 0
        for line in text.split(separator: 0x0A) {
            guard let space = line.lastIndex(of: 0x20),
                let value = UInt64(String(decoding: line[(space + 1)...], as: UTF8.self))
            else {
                Issue.record("seed \(seed): a line without a value: \(String(decoding: line, as: UTF8.self))")
                continue
            }
            total += value
            let frames = line[..<space].split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            // chain; the hops it ran inside; the hop: flat traces have two frames, nested ones up to six.
            #expect(
                frames.count >= 2 && frames.count <= (nested ? 6 : 2),
                "seed \(seed): \(frames.count) frames in \(String(decoding: line, as: UTF8.self))"
            )
        }
        #expect(
            total == traces.flatMap(\.hops).reduce(0) { $0 + $1.selfDuration },
            "seed \(seed): folded total \(total)"
        )

        // In microseconds each line is its nanoseconds rounded once: the lines add up to the self time within half
        // a microsecond a line, and name the same stacks in the same order.
        let micro = Array(folded.text(unit: .microseconds).utf8).split(separator: 0x0A)
        let nano = text.split(separator: 0x0A)
        #expect(micro.count == nano.count, "seed \(seed)")
        var microTotal: UInt64 = 0
        for (line, exact) in zip(micro, nano) {
            let bytes = Array(line)
            guard let space = bytes.lastIndex(of: 0x20), let exactSpace = exact.lastIndex(of: 0x20),
                let value = UInt64(String(decoding: bytes[(space + 1)...], as: UTF8.self)),
                let nanoseconds = UInt64(String(decoding: exact[(exactSpace + 1)...], as: UTF8.self))
            else { continue }
            #expect(Array(bytes[..<space]) == Array(exact[..<exactSpace]), "seed \(seed): stacks differ")
            #expect(value == (nanoseconds + 500) / 1000, "seed \(seed): \(nanoseconds) ns written as \(value) µs")
            microTotal += value
        }
        let difference = abs(Double(microTotal) * 1000 - Double(total))
        #expect(difference <= 500 * Double(max(1, micro.count)), "seed \(seed): µs lines off by \(difference) ns")
    }
}
