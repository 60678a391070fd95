import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// The compact trace log (version 4) on generated traces: hostile names, reasons, registries, parents, request spans, payloads of every
/// JSON kind, extreme ids, times and durations, every outcome, in segments (a header mid-log starts one again)
/// with dropped-trace records between them. Every log reads back to exactly the traces written, through the fast
/// decoder and through the general one; cut anywhere, it reads back to the whole traces before the cut and reports
/// the torn line; and version 1 lines read the same traces.
@Suite("Compact trace log (version 4)")
struct CompactTraceLogPropertyTests {
    static func trace(_ random: inout SeededGenerator, names: [String]) -> Trace {
        let extreme = random.chance(0.2)
        // Half the traces record parents (any earlier hop, or none), as recorders since version 3 do; the rest, as
        // logs written before.
        let recordsParents = random.chance(0.5)
        let hops = (0..<Int.random(in: 0...12, using: &random)).map { position in
            Hop(
                handler: random.pick(names),
                position: position,
                decision: random.pick(Decision.allCases),
                reason: random.chance(0.2) ? random.hostileName() : nil,
                registry: random.chance(0.15) ? random.pick(names) : nil,
                parent: recordsParents && position > 0 && random.chance(0.8)
                    ? Int.random(in: 0..<position, using: &random) : nil,
                startOffset: extreme ? UInt64.random(in: 0...UInt64.max, using: &random) : UInt64(position * 150),
                inclusiveDuration: extreme
                    ? UInt64.random(in: 0...UInt64.max, using: &random)
                    : UInt64.random(in: 0...100_000, using: &random),
                selfDuration: extreme
                    ? UInt64.random(in: 0...UInt64.max, using: &random) : UInt64.random(in: 0...5_000, using: &random)
            )
        }
        let outcome: Outcome =
            switch (Int.random(in: 0..<3, using: &random), hops.last) {
            case (0, let last?): .accepted(by: last.handler)
            case (1, let last?): .failed(at: last.handler, error: random.hostileName())
            default: .fellOffTheEnd
            }
        return Trace(
            id: random.chance(0.3) ? random.next() : UInt64.random(in: 1...100, using: &random),
            commandKind: random.pick(names),
            commandID: random.chance(0.6) ? random.hostileName() : nil,
            payload: random.chance(0.4) ? TraceEncodingPropertyTests.payload(&random) : nil,
            entry: random.pick(names),
            chain: random.pick(names),
            chainVersion: Int.random(in: 0...(extreme ? Int.max : 10), using: &random),
            startTime: extreme
                ? Int64.random(in: .min ... .max, using: &random) : Int64.random(in: 0...1 << 62, using: &random),
            hops: hops,
            outcome: outcome,
            duration: extreme
                ? UInt64.random(in: 0...UInt64.max, using: &random) : UInt64.random(in: 0...1_000_000, using: &random),
            // A request span's, as the Hummingbird and Vapor integrations note it.
            traceParent: random.chance(0.3)
                ? TraceParent(traceID: random.hexDigits(32), spanID: random.hexDigits(16)) : nil
        )
    }

    /// The trace as a reader gives it back: times beyond Int64 are written clamped, as in version 1.
    static func asWritten(_ trace: Trace) -> Trace {
        let back = try? TraceLogReader(bytes: TraceLogFormat.header + [0x0A] + TraceLogFormat.encode(trace) + [0x0A])
            .readAll().traces
        return back?.first ?? trace
    }

    /// A generated log: segments of traces, with dropped records between them; the traces and the drops.
    static func log(_ random: inout SeededGenerator) -> (bytes: [UInt8], traces: [Trace], dropped: Int) {
        let names = (0..<Int.random(in: 1...8, using: &random)).map { _ in random.hostileName(maximumLength: 8) }
        var bytes = CompactTraceLogFormat.header + [0x0A]
        var encoder = CompactTraceLogEncoder()
        var traces: [Trace] = []
        var dropped = 0
        for _ in 0..<Int.random(in: 0...30, using: &random) {
            if random.chance(0.05) {
                bytes += CompactTraceLogFormat.header + [0x0A]
                encoder.reset()
            }
            if random.chance(0.05) {
                let count = Int.random(in: 1...1000, using: &random)
                encoder.encodeDropped(count: count, into: &bytes)
                dropped += count
            }
            let trace = trace(&random, names: names)
            encoder.encode(trace, into: &bytes)
            traces.append(asWritten(trace))
        }
        return (bytes, traces, dropped)
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func everyLogReadsBackExactlyOnBothPaths(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (bytes, traces, dropped) = Self.log(&random)
        let fast = TraceLogReader(bytes: bytes, name: "fast.jsonl")
        #expect(try fast.readAll().traces == traces, "seed \(seed)")
        #expect(fast.droppedTraces == dropped, "seed \(seed)")
        let general = TraceLogReader(bytes: bytes, name: "general.jsonl")
        general.usesFastPath = false
        #expect(try general.readAll().traces == traces, "seed \(seed)")
        let withoutPayloads = try TraceLogReader(bytes: bytes, payloads: false).readAll().traces
        #expect(
            withoutPayloads.map(\.payload).allSatisfy { $0 == nil }
                && withoutPayloads.map(\.hops) == traces.map(\.hops),
            "seed \(seed)"
        )
        // The same traces in version 1, in the same log after them: one log, two segments, two versions.
        let mixed = bytes + TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        #expect(try TraceLogReader(bytes: mixed).readAll().traces == traces + traces, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func aLogCutAnywhereReadsItsWholeTracesAndReportsTheTornLine(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (bytes, traces, _) = Self.log(&random)
        let cut = Int.random(in: (CompactTraceLogFormat.header.count + 1)...bytes.count, using: &random)
        let prefix = Array(bytes[..<cut])
        let read = try TraceLogReader(bytes: prefix).readAll()
        // The traces whose line is whole: ended before the cut, or cut just before its newline (a last line
        // without its newline reads like any other).
        let endsLine = prefix.last == 0x0A
        let lastLineIsWhole = endsLine || cut == bytes.count || bytes[cut] == 0x0A
        let wholeLines = (prefix + (lastLineIsWhole && !endsLine ? [0x0A] : [])).split(
            separator: 0x0A,
            omittingEmptySubsequences: false
        ).dropLast()
        let wholeTraces = wholeLines.filter { $0.first == UInt8(ascii: "[") }.count
        #expect(read.traces == Array(traces.prefix(wholeTraces)), "seed \(seed) cut \(cut)")
        #expect((read.tornTail != nil) == !lastLineIsWhole, "seed \(seed) cut \(cut)")
    }

    /// Every way a line can be wrong, generated by changing one element of a valid log: both paths refuse it with
    /// the same error, naming the line.
    @Test(arguments: SeededGenerator.seeds(200))
    func aDamagedLineIsRefusedTheSameWayOnBothPaths(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var (bytes, _, _) = Self.log(&random)
        let lines = bytes.split(separator: 0x0A).map(Array.init)
        guard lines.count > 2 else { return }
        let target = Int.random(in: 1..<lines.count, using: &random)
        var line = lines[target]
        let damage: [[UInt8]] = [
            Array("[1,2,3]".utf8), Array(#"{"names":[1]}"#.utf8), Array(#"{"dropped":0}"#.utf8),
            Array(#"{"other":1}"#.utf8),
            Array("[0,0,-1,0,0,0,0,-1,[]]".utf8), Array("[0,0,0,99999,0,0,0,-1,[]]".utf8),
            Array("[0,0,0,0,0,0,0,1,[]]".utf8),
            Array("[0,0,0,0,0,0,0,-1,[0,1,2]]".utf8), Array("[0,0,0,0,0,0,0,-1,[0,-1,0,0]]".utf8),
            Array("[0,0,0,0,0,0,0,-1,[0,1,0,9223372036854775807]]".utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[],{"error":"x"}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[],{"reasons":[[3,"x"]]}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[],{"what":1}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[],{"zzz":1,"aaa":2,"mmm":3,"bbb":4}]"#.utf8),
            Array("[0,0,0,0,0,0,0,-2,[]]".utf8), Array("[0,0,0,0,-1,0,0,-1,[]]".utf8),
            Array("[0,0,0.5,0,0,0,0,-1,[]]".utf8),
            // Parents: one distance a hop, each back to an earlier hop (or 0), integers.
            Array(#"[0,0,0,0,0,0,0,-1,[1,1,0,0],{"parents":[1]}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[1,1,0,0],{"parents":[0,0]}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[1,1,0,0,1,1,0,0],{"parents":[0,2]}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[1,1,0,0],{"parents":[-1]}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[1,1,0,0],{"parents":[0.5]}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[1,1,0,0],{"parents":0}]"#.utf8),
            Array(#"[0,0,0,0,0,0,0,-1,[],{"parents":[]}]"#.utf8),
        ]
        line = random.pick(damage)
        bytes = (lines[..<target] + [line] + lines[(target + 1)...]).flatMap { $0 + [0x0A] }
        func error(fast: Bool) -> FormatError? {
            let reader = TraceLogReader(bytes: bytes, name: "damaged.jsonl")
            reader.usesFastPath = fast
            do {
                _ = try reader.readAll()
                return nil
            } catch {
                return error
            }
        }
        let (fast, general) = (error(fast: true), error(fast: false))
        // A damaged line may still be valid (a names line that adds nothing wrong): then neither path refuses.
        #expect(fast == general, "seed \(seed): \(String(decoding: line, as: UTF8.self))")
        if let fast { #expect(fast.line == target + 1, "seed \(seed): \(fast)") }
    }

    /// Logs joined with `cat` read as one (each starts with its header), but a segment appended without its header
    /// line would read its name numbers against the previous segment's table — other names, silently. A name
    /// written twice in a segment is refused instead, on both paths, at the repeated name.
    @Test(arguments: SeededGenerator.seeds(100))
    func aSegmentJoinedWithoutItsHeaderIsRefusedAtItsFirstName(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let names = (0..<Int.random(in: 1...6, using: &random)).map { _ in random.hostileName(maximumLength: 8) }
        var bytes = CompactTraceLogFormat.header + [0x0A]
        var encoder = CompactTraceLogEncoder()
        var traces: [Trace] = []
        for _ in 0..<Int.random(in: 1...20, using: &random) {
            let trace = Self.trace(&random, names: names)
            encoder.encode(trace, into: &bytes)
            traces.append(Self.asWritten(trace))
        }
        #expect(
            try TraceLogReader(bytes: bytes + bytes).readAll().traces == traces + traces,
            "seed \(seed): cat of two logs"
        )
        let body = Array(bytes.dropFirst(CompactTraceLogFormat.header.count + 1))
        let joined = bytes + body
        let repeatedLine = bytes.filter { $0 == 0x0A }.count + 1  // the body's first line: its first names record
        for fast in [true, false] {
            let reader = TraceLogReader(bytes: joined, name: "joined.jsonl")
            reader.usesFastPath = fast
            let error = #expect(throws: FormatError.self) { _ = try reader.readAll() }
            #expect(
                error?.line == repeatedLine && error?.column == 11,
                "seed \(seed), fast \(fast): \(String(describing: error))"
            )
            #expect(error?.description.contains("not yet written in this segment") == true, "seed \(seed)")
        }
    }

    /// The size the issue asks for: a realistic 10-hop trace (names of 10–20 characters, self times of tens of
    /// nanoseconds to microseconds, a command id, each hop inside the one before) takes at most 300 bytes once its
    /// names are written.
    @Test func aTenHopTraceTakesAtMostThreeHundredBytes() throws {
        var random = SeededGenerator(seed: 7)
        let names = (0..<10).map { "Handler\($0)Validator" }
        var encoder = CompactTraceLogEncoder()
        var bytes: [UInt8] = []
        encoder.encode(Self.realistic(&random, names: names, number: 0), into: &bytes)
        var traceBytes: [UInt8] = []
        for number in 1...1000 {
            encoder.encode(Self.realistic(&random, names: names, number: number), into: &traceBytes)
        }
        let average = Double(traceBytes.count) / 1000
        #expect(average <= 300, "\(average) bytes a trace")
        var version1 = 0
        for number in 1...1000 {
            version1 += TraceLogFormat.encode(Self.realistic(&random, names: names, number: number)).count + 1
        }
        #expect(Double(version1) / 1000 > 3 * average, "version 1: \(Double(version1) / 1000) bytes a trace")
    }

    static func realistic(_ random: inout SeededGenerator, names: [String], number: Int) -> Trace {
        var offset: UInt64 = 0
        var selfTimes = (0..<10).map { _ in UInt64.random(in: 20...3_000, using: &random) }
        selfTimes[9] += UInt64.random(in: 0...20_000, using: &random)
        let hops = (0..<10).map { position -> Hop in
            defer { offset += selfTimes[position] }
            // Each handler called by the one before, as in a `next`-linked chain with `traceHop`.
            return Hop(
                handler: names[position],
                position: position,
                decision: position == 9 ? .accepted : .passed,
                parent: position > 0 ? position - 1 : nil,
                startOffset: offset,
                inclusiveDuration: selfTimes[position...].reduce(0, +),
                selfDuration: selfTimes[position]
            )
        }
        return Trace(
            id: UInt64(number + 1),
            commandKind: "Payment",
            commandID: "cmd-\(100_000 + number)",
            entry: names[0],
            chain: "payments",
            startTime: 1_763_800_000_000_000_000 + Int64(number) * 1_000_000,
            hops: hops,
            outcome: .accepted(by: names[9]),
            duration: selfTimes.reduce(0, +)
        )
    }
}
