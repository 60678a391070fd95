import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTesting
import ChainTraceTraceLog
import Foundation
import Testing

@Suite("The JSON-Lines trace log")
struct TraceLogTests {
    struct Order: Codable, Sendable, TracedCommand {
        var id: String
        var amount: Double
        var tags: [String]
        var commandID: String? { id }
    }

    func temporaryPath(_ name: String = #function) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        return TestFiles.directory.appendingPathComponent("chaintrace-\(safe)-\(UUID()).jsonl").path
    }

    func recordedTraces(into sink: some TraceSink) throws {
        let chain = try Chain<Order, String>(
            "orders",
            handlers: [
                .observer("Audit") { _ in },
                Handler("Small") { $0.amount < 10 ? .accept("small") : .pass(because: "amount \($0.amount) ≥ 10") },
                Handler("Fraud") { order in
                    if order.tags.contains("stolen") { throw CocoaStyleError(reason: "card \"stolen\"\nflagged") }
                    return .pass
                },
            ],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        try chain.addRegistry("Plugins").register(Handler("Large") { $0.amount > 1000 ? .accept("large") : .pass })
        try chain.send(Order(id: "o-1", amount: 5, tags: []))
        try chain.send(Order(id: "o-2", amount: 50, tags: ["gift", "ünïcödé"]))
        _ = try? chain.send(Order(id: "o-3", amount: 60, tags: ["stolen"]))
        try chain.send(Order(id: "o-4", amount: 5000, tags: []))
    }

    struct CocoaStyleError: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    @Test func logRoundTripsEveryTraceExactly() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let memory = InMemoryTraceSink()
        let log = try TraceLogSink(path: path)
        try recordedTraces(into: FanOutTraceSink([memory, log]))
        try log.close()
        let read = try TraceLogReader.readAll(path: path)
        #expect(read.tornTail == nil)
        #expect(read.traces.count == 4)
        #expect(read.traces == memory.traces)
        expectFailed(read.traces[2], at: "Fraud", error: "card \"stolen\"\nflagged")
        #expect(read.traces[3].hop("Large")?.registry == "Plugins")
        #expect(read.traces[1].payload?["tags"] == ["gift", "ünïcödé"])
    }

    @Test func theSameTraceAlwaysEncodesToTheSameBytesWithSortedKeys() throws {
        let trace = Trace(
            id: 7,
            commandKind: "Order",
            commandID: "o-7",
            payload: ["b": 1, "a": [true]],
            entry: "Audit",
            chain: "orders",
            chainVersion: 2,
            startTime: 1_763_800_000_000_000_000,
            hops: [
                Hop(
                    handler: "Audit",
                    position: 0,
                    decision: .accepted,
                    startOffset: 0,
                    inclusiveDuration: 40,
                    selfDuration: 40
                )
            ],
            outcome: .accepted(by: "Audit"),
            duration: 40
        )
        let line = String(decoding: TraceLogFormat.encode(trace), as: UTF8.self)
        #expect(
            line
                == #"{"chain":"orders","chainVersion":2,"command":{"id":"o-7","kind":"Order","payload":{"a":[true],"b":1}},"durationNs":40,"entry":"Audit","hops":[{"decision":"accepted","handler":"Audit","inclusiveNs":40,"position":0,"selfNs":40,"startOffsetNs":0}],"id":7,"outcome":{"handler":"Audit","kind":"accepted"},"startTimeNs":1763800000000000000}"#
        )
        #expect(TraceLogFormat.encode(trace) == TraceLogFormat.encode(trace))
    }

    @Test func directEncodingMatchesWritingTheValueForEveryKindOfTrace() throws {
        let memory = InMemoryTraceSink()
        try recordedTraces(into: memory)
        let traces =
            memory.traces + [
                Trace(
                    id: UInt64.max,
                    commandKind: "K",
                    entry: "A",
                    chain: "c",
                    startTime: -5,
                    hops: [],
                    outcome: .fellOffTheEnd,
                    duration: 0
                )
            ]
        for trace in traces {
            var writer = JSONWriter()
            writer.write(TraceLogFormat.value(of: trace))
            #expect(TraceLogFormat.encode(trace) == writer.bytes, "\(trace)")
        }
    }

    @Test func aLogTornMidLineKeepsEveryCompleteTraceAndReportsTheTornLine() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try TraceLogSink(path: path)
        try recordedTraces(into: log)
        try log.close()
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let lineCount = bytes.filter { $0 == 0x0A }.count
        bytes.removeLast(10)  // the writer died 10 bytes before the end of the last line
        let read = try TraceLogReader(bytes: bytes, name: "torn.jsonl").readAll()
        #expect(read.traces.count == 3)
        #expect(read.tornTail?.line == lineCount)
        #expect(read.tornTail?.description.contains("line \(lineCount) is incomplete") == true)
    }

    @Test func aMalformedCompleteLineIsAnErrorWithFileLineAndColumn() throws {
        let log = """
            {"format":"chaintrace-trace-log","version":1}
            {"chain":"c","chainVersion":0,"command":{"kind":"K"},"durationNs":1,"entry":"A","hops":[],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":0}
            {"chain":"c",,}

            """
        let error = #expect(throws: FormatError.self) {
            try TraceLogReader(bytes: Array(log.utf8), name: "bad.jsonl").readAll()
        }
        #expect(error?.description == "bad.jsonl:3:14: expected a member name in double quotes, found ','")
    }

    @Test(arguments: [
        (
            #""hops":[{"decision":"passed","handler":"A","inclusiveNs":1,"position":0,"selfNs":1,"startOffsetNs":0}]"#,
            #""hops":{}"#, "hops to be an array", "an object"
        ),
        (#""id":1,"#, #""id":"1","#, "id to be an integer", "the string \"1\""),
        (#""position":0"#, #""position":3"#, "hops[0].position to be 0, its index in hops", "the number 3"),
        (
            #""decision":"passed""#, #""decision":"skipped""#,
            "hops[0].decision to be one of accepted, passed, continued, failed", "the string \"skipped\""
        ),
        (#""durationNs":1"#, #""durationNs":-1"#, "durationNs to be an integer ≥ 0", "the number -1"),
        (#""entry":"A","#, "", "entry (a string)", "no such field"),
        (
            #""kind":"fellOffTheEnd""#, #""kind":"vanished""#, "outcome.kind to be accepted, fellOffTheEnd or failed",
            "\"vanished\""
        ),
    ])
    func wrongFieldsNameTheFieldTheLineAndWhatWasFound(
        original: String,
        replacement: String,
        expected: String,
        found: String
    ) {
        let good =
            #"{"chain":"c","chainVersion":0,"command":{"kind":"K"},"durationNs":1,"entry":"A","hops":[{"decision":"passed","handler":"A","inclusiveNs":1,"position":0,"selfNs":1,"startOffsetNs":0}],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":0}"#
        let bad = good.replacingOccurrences(of: original, with: replacement)
        let text = "{\"format\":\"chaintrace-trace-log\",\"version\":1}\n\(good)\n\(bad)\n"
        let error = #expect(throws: FormatError.self) {
            try TraceLogReader(bytes: Array(text.utf8), name: "fields.jsonl").readAll()
        }
        #expect(error?.line == 3)
        #expect(error?.expected == expected)
        #expect(error?.found == found)
    }

    @Test func headerIsRequiredAndNewerVersionsAreRefusedClearly() {
        let noHeader = #"{"chain":"c"}"# + "\n"
        let missing = #expect(throws: FormatError.self) {
            try TraceLogReader(bytes: Array(noHeader.utf8), name: "a.jsonl").readAll()
        }
        #expect(missing?.expected.contains("trace log header") == true)
        let newer = #"{"format":"chaintrace-trace-log","version":5}"# + "\n"
        let version = #expect(throws: FormatError.self) {
            try TraceLogReader(bytes: Array(newer.utf8), name: "b.jsonl").readAll()
        }
        #expect(
            version?.description
                == "b.jsonl:1:1: expected trace log version 1, 2, 3 or 4 (the versions this ChainTrace reads), found version 5"
        )
        let empty = #expect(throws: FormatError.self) { try TraceLogReader(bytes: [], name: "c.jsonl").readAll() }
        #expect(empty?.found == "an empty file")
    }

    @Test func missingFileIsAnErrorNamingIt() {
        let error = #expect(throws: FormatError.self) { try TraceLogReader(path: "/nonexistent/traces.jsonl") }
        #expect(error?.description.hasPrefix("/nonexistent/traces.jsonl: expected a readable file") == true)
    }

    @Test(arguments: [TraceLogSink.Format.compact, .jsonLines])
    func appendingContinuesALog(format: TraceLogSink.Format) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = TraceLogSink.Options()
        options.format = format
        for _ in 0..<2 {
            let log = try TraceLogSink(path: path, appending: true, options: options)
            try recordedTraces(into: log)
            try log.close()
        }
        #expect(try TraceLogReader.readAll(path: path).traces.count == 8)
        // Each run starts a new segment with a header of its format: a version 1 run appended after a compact
        // segment (whatever the file's first header) was read as compact lines without one.
        let headers = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter {
            $0.contains(#""format""#)
        }
        #expect(headers.count == 2)
    }

    /// Runs appending in alternating formats — whatever the file's first header, each reads in its own.
    @Test(arguments: [
        [TraceLogSink.Format.jsonLines, .compact, .jsonLines], [.compact, .jsonLines, .compact, .jsonLines],
    ])
    func appendingGoesOnInTheOtherFormat(formats: [TraceLogSink.Format]) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for format in formats {
            var options = TraceLogSink.Options()
            options.format = format
            let log = try TraceLogSink(path: path, appending: true, options: options)
            try recordedTraces(into: log)
            try log.close()
        }
        let read = try TraceLogReader.readAll(path: path)
        #expect(read.traces.count == 4 * formats.count)
        #expect(read.tornTail == nil)
    }

    @Test func logsLargerThanTheReadChunkStreamThrough() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try TraceLogSink(path: path)
        let chain = try Chain<Int, Int>(
            "many",
            handlers: (0..<20).map { index in Handler("H\(index)") { _ in .pass } },
            recorder: Recorder(sink: log, payloads: .captured)
        )
        for value in 0..<6_000 { try chain.send(value) }
        try log.close()
        let reader = try TraceLogReader(path: path)
        var count = 0
        while let trace = try reader.next() {
            #expect(trace.payload == .integer(Int64(count)))
            count += 1
        }
        #expect(count == 6_000)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 1 << 20)
    }
}
