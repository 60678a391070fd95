import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTraceLog
import Testing

@Suite("The trace log reader's fast path")
struct TraceLineDecoderTests {
    static let header = #"{"format":"chaintrace-trace-log","version":1}"#

    /// Reads `lines` with the reader (fast path first) and with the general decoder, line by line.
    func bothWays(_ lines: [String]) throws -> (fast: [Trace], general: [Trace]) {
        let text = ([Self.header] + lines).joined(separator: "\n") + "\n"
        let fast = try TraceLogReader(bytes: Array(text.utf8), name: "t.jsonl").readAll().traces
        let values = JSONLinesReader(bytes: Array(text.utf8), name: "t.jsonl")
        _ = try values.next()
        var general: [Trace] = []
        while let (line, value) = try values.next() {
            general.append(try TraceLogFormat.decode(value, file: "t.jsonl", line: line))
        }
        return (fast, general)
    }

    @Test func readsEveryShapeOfValidLineExactlyAsTheGeneralDecoder() throws {
        let lines = [
            #"{"chain":"c","chainVersion":2,"command":{"id":"a1","kind":"Tap","payload":{"x":1.5,"tags":["a","b"],"deep":{"n":null,"ok":true,"e":-0}}},"durationNs":30,"entry":"A","hops":[{"decision":"passed","handler":"A","inclusiveNs":30,"position":0,"selfNs":10,"startOffsetNs":0},{"decision":"accepted","handler":"B","inclusiveNs":20,"position":1,"selfNs":20,"startOffsetNs":10}],"id":7,"outcome":{"handler":"B","kind":"accepted"},"startTimeNs":1700000000000000000}"#,
            #"{ "id" : 8 , "chain" : "ünïcode ✓", "chainVersion": 0, "command": {"kind": "K", "id": null}, "durationNs": 0, "entry": "Ä", "hops": [], "outcome": {"kind": "fellOffTheEnd"}, "startTimeNs": -5, "extra": {"ignored": [1, 2e3]} }"#,
            #"{"chain":"c","chainVersion":0,"command":{"kind":"K\"quoted\""},"durationNs":5,"entry":"A","hops":[{"decision":"failed","handler":"A\\B","inclusiveNs":5,"position":0,"reason":"boom\n","registry":null,"selfNs":5,"startOffsetNs":0}],"id":9,"outcome":{"error":"boom","handler":"A\\B","kind":"failed"},"startTimeNs":1}"#,
            #"{"chain":"c","chainVersion":0,"command":{"kind":"L"},"durationNs":1,"entry":"A","hops":[{"decision":"continued","handler":"A","inclusiveNs":1,"position":0,"registry":"R","selfNs":1,"startOffsetNs":0}],"id":10,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":1}"#,
        ]
        let (fast, general) = try bothWays(lines)
        #expect(fast.count == 4)
        #expect(fast == general)
        #expect(fast[0].payload?["tags"] == ["a", "b"])
        #expect(fast[3].commandKind == "L" && fast[3].commandID == nil, "a repeated member: the last one wins, whole")
    }

    @Test func refusesWhatTheGeneralDecoderRefusesWithTheSameError() throws {
        let bad = [
            (
                #"{"chain":"c","chainVersion":-1,"command":{"kind":"K"},"durationNs":1,"entry":"A","hops":[],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":1}"#,
                "chainVersion to be an integer ≥ 0"
            ),
            (
                #"{"chain":"c","chainVersion":0,"command":{"kind":"K"},"durationNs":1.5,"entry":"A","hops":[],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":1}"#,
                "durationNs to be an integer"
            ),
            (
                #"{"chain":"c","chainVersion":0,"command":{"kind":"K"},"durationNs":1,"entry":"A","hops":[{"decision":"passed","handler":"A","inclusiveNs":1,"position":1,"selfNs":1,"startOffsetNs":0}],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":1}"#,
                "hops[0].position"
            ),
            (
                #"{"chain":"c","chainVersion":0,"command":{"kind":"K"},"durationNs":1,"entry":"A","hops":[],"id":1,"outcome":{"kind":"won"},"startTimeNs":1}"#,
                "outcome.kind"
            ),
            (
                #"{"chain":"c","chainVersion":0,"command":{"kind":"K"},"durationNs":1,"entry":"A","hops":[],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":01}"#,
                "t.jsonl:2:"
            ),
        ]
        for (line, expected) in bad {
            let text = Self.header + "\n" + line + "\n"
            #expect(
                performing: { _ = try TraceLogReader(bytes: Array(text.utf8), name: "t.jsonl").readAll() },
                throws: { error in
                    "\(error)".contains(expected)
                }
            )
        }
    }
}

@Suite("Command streams")
struct CommandStreamReaderTests {
    @Test func aFirstCommandWithAFormatFieldIsACommandNotALogHeader() throws {
        let text = "{\"kind\":\"Export\",\"format\":\"pdf\"}\n{\"kind\":\"Export\",\"format\":\"png\",\"id\":7}\n"
        let reader = CommandStreamReader(bytes: Array(text.utf8), name: "s.jsonl")
        var kinds: [String] = []
        while let (_, item) = try reader.next() {
            guard case .command(let command) = item else { continue }
            kinds.append("\(command.kind) \(command.fields["format"]?.stringValue ?? "?") \(command.id ?? "-")")
        }
        #expect(!reader.isTraceLog)
        #expect(kinds == ["Export pdf -", "Export png 7"])
    }

    @Test func fastAndGeneralPathsReadCommandsAlike() throws {
        let schema = FieldSchema(names: ["weight", "card"])
        let lines = [
            #"{"id":"a","kind":"Coin","weight":2.5,"card":{"type":"visa"},"note":"x"}"#,
            #"{"id":3,"entry":"Penny","weight":-1e2,"tags":[1,2.5,"a\"b"],"none":null}"#,
            #"{"kind":"Coin","fields":{"weight":7,"extra":true}}"#,
            #"{"kind":"Coin","weight":12345678901234567890}"#,
        ]
        let text = lines.joined(separator: "\n") + "\n"
        let fast = CommandStreamReader(bytes: Array(text.utf8), name: "f", schema: schema)
        let general = CommandStreamReader(bytes: Array(text.utf8), name: "g")
        for _ in lines {
            let left = try #require(try fast.next())
            let right = try #require(try general.next())
            #expect(left.item == right.item)
        }
    }
}
