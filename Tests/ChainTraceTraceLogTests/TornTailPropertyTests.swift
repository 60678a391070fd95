import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A trace log cut at any byte — as a writer that died leaves it: cut inside its last line, every complete trace
/// before it reads and the cut line is reported as a torn tail (its line and size), never as a trace or an
/// error; cut just after a newline, or just before one, nothing is torn.
@Suite("Logs cut anywhere")
struct TornTailPropertyTests {
    static func traces(_ random: inout SeededGenerator) -> [Trace] {
        (0..<Int.random(in: 1...8, using: &random)).map { index in
            Trace(
                id: UInt64(index),
                commandKind: "K",
                commandID: "c\(index)",
                payload: ["n": .integer(Int64(index))],
                entry: "A",
                chain: "c",
                hops: [
                    Hop(
                        handler: "A",
                        position: 0,
                        decision: .accepted,
                        reason: random.hostileName(),
                        inclusiveDuration: 2,
                        selfDuration: 2
                    )
                ],
                outcome: .accepted(by: "A"),
                duration: 2
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func everyCompleteTraceReadsAndTheCutLineIsReportedTorn(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = Self.traces(&random)
        let lines = traces.map(TraceLogFormat.encode)
        let whole = TraceLogFormat.header + [0x0A] + lines.flatMap { $0 + [0x0A] }
        // Cut somewhere after the header: inside a line, or right after a newline.
        let cut = Int.random(in: (TraceLogFormat.header.count + 1)...whole.count, using: &random)
        let bytes = Array(whole[..<cut])
        let log = try TraceLogReader(bytes: bytes, name: "cut.jsonl").readAll()

        // How many lines the cut left whole, and how many bytes of the next one.
        var complete = 0
        var offset = TraceLogFormat.header.count + 1
        while complete < lines.count, offset + lines[complete].count + 1 <= cut {
            offset += lines[complete].count + 1
            complete += 1
        }
        let leftover = cut - offset
        if leftover == 0 {
            #expect(log.traces == Array(traces.prefix(complete)), "seed \(seed): cut at \(cut)")
            #expect(log.tornTail == nil, "seed \(seed)")
        } else if leftover == lines[complete].count {
            // The line is all there but its newline: it reads like any other last line.
            #expect(log.traces == Array(traces.prefix(complete + 1)), "seed \(seed): cut at \(cut)")
            #expect(log.tornTail == nil, "seed \(seed)")
        } else {
            #expect(
                log.traces == Array(traces.prefix(complete)),
                "seed \(seed): cut at \(cut), \(log.traces.count) read, \(complete) whole"
            )
            #expect(log.tornTail?.line == complete + 2, "seed \(seed): \(String(describing: log.tornTail))")
            #expect(log.tornTail?.byteCount == leftover, "seed \(seed)")
        }
    }

    /// Cut inside its header — a writer stopped before its first newline — a log is empty with the header torn;
    /// the whole header with no newline is an empty log. A first line with no newline that is not the start of a
    /// header is no trace log: an error at line 1, where it used to read as an empty log with a torn line.
    @Test(arguments: SeededGenerator.seeds(40))
    func aCutHeaderIsTornAndAnythingElseAloneIsAnError(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let header = random.chance(0.5) ? TraceLogFormat.header : CompactTraceLogFormat.header
        let cut = Int.random(in: 1...header.count, using: &random)
        let log = try TraceLogReader(bytes: Array(header[..<cut]), name: "cut.jsonl").readAll()
        #expect(log.traces.isEmpty, "seed \(seed)")
        #expect(log.tornTail?.byteCount == (cut < header.count ? cut : nil), "seed \(seed): cut at \(cut)")

        // Bytes that no header starts with: some header bytes, then one that differs.
        var other = Array(header[..<Int.random(in: 0..<header.count, using: &random)])
        let differing = header[other.count]
        other.append(random.pick(Array(" x{}\"0,:".utf8).filter { $0 != differing }))
        other += (0..<Int.random(in: 0...20, using: &random)).map { _ in random.pick(Array("abc{}[]\",:0 ".utf8)) }
        do {
            let read = try TraceLogReader(bytes: other, name: "other.jsonl").readAll()
            Issue.record(
                "seed \(seed): \(String(decoding: other, as: UTF8.self)) read as \(read.traces.count) traces, torn \(String(describing: read.tornTail))"
            )
        } catch {
            #expect(error.line == 1 && error.expected.hasPrefix("a trace log header"), "seed \(seed): \(error)")
        }
    }
}

/// Appending to a log cut anywhere — as a writer that died leaves it — keeps it readable: the torn last line is
/// cut off first (and reported), every whole trace before it stays, the new traces follow; a file that is not a
/// trace log is refused and left exactly as it was.
@Suite("Appending to cut logs")
struct AppendingToCutLogsTests {
    static func path() -> String {
        TestFiles.directory.appendingPathComponent("chaintrace-append-\(UUID()).jsonl").path
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func appendingAfterATornLineKeepsTheLogReadable(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let old = TornTailPropertyTests.traces(&random)
        let whole = TraceLogFormat.header + [0x0A] + old.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        // Now and then exactly before a newline: a whole last line that only lacks it.
        let ends = whole.indices.filter { whole[$0] == 0x0A && $0 > TraceLogFormat.header.count }
        let cut =
            random.chance(0.2)
            ? random.pick(ends) : Int.random(in: (TraceLogFormat.header.count + 1)...whole.count, using: &random)
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(whole[..<cut]).write(to: URL(fileURLWithPath: path))
        let before = try TraceLogReader(path: path).readAll()

        let sink = try TraceLogSink(path: path, appending: true)
        let new = TornTailPropertyTests.traces(&random).map { trace in
            Trace(
                id: trace.id + 100,
                commandKind: "New",
                commandID: trace.commandID,
                payload: trace.payload,
                entry: trace.entry,
                chain: trace.chain,
                hops: trace.hops,
                outcome: trace.outcome,
                duration: trace.duration
            )
        }
        for trace in new { sink.record(trace) }
        try sink.close()

        let after = try TraceLogReader(path: path).readAll()
        #expect(after.tornTail == nil, "seed \(seed)")
        // A whole last line without its newline reads as a trace before, and is kept (completed) after.
        #expect(
            after.traces == before.traces + new,
            "seed \(seed): \(after.traces.count) traces after, \(before.traces.count) + \(new.count) expected"
        )
        #expect(
            sink.repairedTail?.byteCount == before.tornTail?.byteCount,
            "seed \(seed): \(String(describing: sink.repairedTail)) vs \(String(describing: before.tornTail))"
        )
        #expect(sink.repairedTail?.line == before.tornTail?.line, "seed \(seed)")
    }

    /// A log cut inside its header — a writer stopped before its first newline — holds nothing yet: appending
    /// cuts the start of a header off (reported, line 1) and writes a whole one, and the new traces read back.
    @Test(arguments: SeededGenerator.seeds(20))
    func appendingToACutHeaderStartsTheLogAgain(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let header = random.chance(0.5) ? TraceLogFormat.header : CompactTraceLogFormat.header
        let cut = Int.random(in: 1..<header.count, using: &random)
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(header[..<cut]).write(to: URL(fileURLWithPath: path))
        let new = TornTailPropertyTests.traces(&random)
        let sink = try TraceLogSink(path: path, appending: true)
        for trace in new { sink.record(trace) }
        try sink.close()
        #expect(
            sink.repairedTail?.line == 1 && sink.repairedTail?.byteCount == cut,
            "seed \(seed): \(String(describing: sink.repairedTail))"
        )
        let after = try TraceLogReader(path: path).readAll()
        #expect(after.traces.map(\.commandID) == new.map(\.commandID), "seed \(seed)")
        #expect(after.tornTail == nil, "seed \(seed)")
    }

    @Test(arguments: [
        "not a log\n", #"{"format":"something-else","version":1}"# + "\n", #"{"chain":"c"}"# + "\n", "\u{0}\u{1}binary",
    ])
    func aFileThatIsNotATraceLogIsRefusedAndLeftAsItWas(content: String) throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: FormatError.self) { try TraceLogSink(path: path, appending: true) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
    }
}
