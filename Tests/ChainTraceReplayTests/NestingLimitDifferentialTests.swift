import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Values nested right at the general parser's limit — 512 objects and arrays, the line's own included — in a
/// command line's fields (read into a slot, stepped over unread, or under `fields`), a version 1 trace log line's
/// payload and a compact log's payload, kept or skipped: every fast path accepts exactly the lines the general
/// path accepts, and refuses the others with the same error. (The fast paths counted from the value rather than
/// the line, and took a line one level too deep.)
@Suite("Nesting at the limit: fast and general paths")
struct NestingLimitDifferentialTests {
    /// `levels` objects and arrays, one in another, mixed at random, around a scalar or nothing.
    static func nested(_ random: inout SeededGenerator, levels: Int) -> String {
        var opening = ""
        var closing = ""
        for _ in 0..<levels {
            if random.chance(0.5) {
                opening += "[" + (random.chance(0.3) ? "1," : "")
                closing = "]" + closing
            } else {
                let key = random.pick(["a", "b", "deep"])
                opening += "{\"\(key)\":"
                closing = (random.chance(0.3) ? ",\"z\":null" : "") + "}" + closing
            }
        }
        let inner = random.pick(["1", "\"s\"", "true", "null", "[]", "{}", "-2.5e3"])
        // The innermost container needs something in it to be valid when it is an object.
        return opening + (opening.hasSuffix(":") || opening.hasSuffix("[") || opening.hasSuffix(",") ? inner : "")
            + closing
    }

    @Test(arguments: SeededGenerator.seeds(12))
    func commandLinesNestedAtTheLimitReadAlike(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let schema = FieldSchema(names: ["w", "nested"])
        let warmUp = #"{"kind":"K","w":1,"nested":2,"other":3}"#
        var outcomes: Set<String> = []
        for _ in 0..<24 {
            // Around the limit: the line's object is one level, `fields` another.
            let levels = Int.random(in: 508...513, using: &random)
            let value = Self.nested(&random, levels: levels)
            let line =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: #"{"kind":"K","w":1,"nested":\#(value)}"#
                case 1: #"{"kind":"K","other":\#(value),"w":1}"#
                default: #"{"kind":"K","fields":{"x":\#(value)}}"#
                }
            let general = StreamDecoderDifferentialTests.read(
                CommandStreamReader(bytes: Array((line + "\n").utf8)),
                skipping: 0
            )
            let stream = [warmUp, warmUp, line].joined(separator: "\n") + "\n"
            let fast = StreamDecoderDifferentialTests.read(
                CommandStreamReader(bytes: Array(stream.utf8), schema: schema),
                skipping: 2
            )
            #expect(fast == general, "seed \(seed): \(levels) levels in \(line.prefix(40))…")
            if case .command = general { outcomes.insert("read") } else { outcomes.insert("refused") }
        }
        #expect(
            outcomes.count == 2 || seed != SeededGenerator.seeds(12)[0],
            "the first seed reaches both sides of the limit"
        )
    }

    /// What a trace log reader gives for `bytes`: its traces, or its error.
    static func readAll(_ bytes: [UInt8], fast: Bool, payloads: Bool) -> String {
        let reader = TraceLogReader(bytes: bytes, name: "deep.jsonl", payloads: payloads)
        reader.usesFastPath = fast
        do {
            return "\(try reader.readAll().traces)"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: SeededGenerator.seeds(8))
    func traceLogPayloadsNestedAtTheLimitReadAlike(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<12 {
            let levels = Int.random(in: 508...512, using: &random)
            let value = Self.nested(&random, levels: levels)
            // Version 1: the payload stands in the line's object and the command's.
            let version1 =
                #"{"format":"chaintrace-trace-log","version":1}"# + "\n"
                + #"{"chain":"c","chainVersion":0,"command":{"kind":"K","payload":\#(value)},"durationNs":1,"entry":"A","hops":[],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":1}"#
                + "\n"
            // Compact: a trace written with a small payload, which the nested value then replaces.
            var compact = CompactTraceLogFormat.header + [0x0A]
            var encoder = CompactTraceLogEncoder()
            let trace = Trace(
                id: 1,
                commandKind: "K",
                payload: ["x": 0],
                entry: "A",
                chain: "c",
                hops: [],
                outcome: .fellOffTheEnd,
                duration: 1
            )
            encoder.encode(trace, into: &compact)
            let text = String(decoding: compact, as: UTF8.self)
            #expect(text.contains(#"{"x":0}"#), "seed \(seed): the compact line has the payload to replace")
            let deepCompact = Array(text.replacingFirst(#"{"x":0}"#, with: value).utf8)
            for (name, bytes) in [("version 1", Array(version1.utf8)), ("compact", deepCompact)] {
                for payloads in [true, false] {
                    let fast = Self.readAll(bytes, fast: true, payloads: payloads)
                    let general = Self.readAll(bytes, fast: false, payloads: payloads)
                    #expect(fast == general, "seed \(seed): \(name), \(levels) levels, payloads \(payloads)")
                }
            }
        }
    }
}
