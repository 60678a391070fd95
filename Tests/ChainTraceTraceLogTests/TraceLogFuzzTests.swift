import ChainTrace
import ChainTraceFiles
import ChainTraceTesting
import ChainTraceTraceLog
import Testing

@Suite("Hostile trace logs never crash the reader")
struct TraceLogFuzzTests {
    /// A small deterministic generator, so a failure reproduces.
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    static let line = Array(
        #"{"chain":"c","chainVersion":1,"command":{"id":"x","kind":"K","payload":{"a":[1,2.5,"é\n",null,true]}},"durationNs":9,"entry":"A","hops":[{"decision":"passed","handler":"A","inclusiveNs":4,"position":0,"reason":"r","selfNs":4,"startOffsetNs":0},{"decision":"failed","handler":"B","inclusiveNs":5,"position":1,"reason":"boom","registry":"R","selfNs":5,"startOffsetNs":4}],"id":3,"outcome":{"error":"boom","handler":"B","kind":"failed"},"startTimeNs":7}"#
            .utf8
    )
    static let header = Array(#"{"format":"chaintrace-trace-log","version":1}"#.utf8) + [10]
    static let interesting: [UInt8] = Array(#"{}[]":,\"0123456789-+.eEtrufalsn "#.utf8) + [0, 10, 13, 0x7F, 0xC3, 0xFF]

    @Test func theUnmutatedLineReadsBack() throws {
        let log = try TraceLogReader(bytes: Self.header + Self.line + [10]).readAll()
        #expect(log.traces.count == 1)
        expectFailed(log.traces[0], at: "B", error: "boom")
    }

    @Test func mutatedLinesEitherReadOrFailWithAPosition() {
        var random = SplitMix64(state: 0xC4A1_7EAC)
        var read = 0
        var rejected = 0
        for _ in 0..<3_000 {
            var bytes = Self.line
            for _ in 0...random.below(4) {
                let position = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[position] = Self.interesting[random.below(Self.interesting.count)]
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(Self.interesting[random.below(Self.interesting.count)], at: position)
                default: bytes = Array(bytes[..<position])
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
            }
            let text = Self.header + bytes + [10]
            do {
                let log = try TraceLogReader(bytes: text, name: "fuzz.jsonl").readAll()
                read += log.traces.count
            } catch {
                rejected += 1
                #expect(error.file == "fuzz.jsonl")
                #expect(error.line >= 2, "\(error)")
                #expect(!error.expected.isEmpty && !error.found.isEmpty)
            }
        }
        // Most mutations break the line; some (a changed digit or letter in a string) leave a valid trace, and a
        // few leave only white space, which readers skip.
        #expect(rejected > 2_000)
        #expect(read > 0)
    }
}
