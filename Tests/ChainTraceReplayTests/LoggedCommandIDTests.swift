import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
@_spi(Benchmarks) import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A replay that writes a log keeps a long command id in the command's payload instead of making a `String` of it
/// (`JSONCommand.fieldsText(keepingID:)`); whatever reads the trace must still see the id the stream gave. On
/// generated streams whose ids are long and short, plain and escaped, numbers, `null` or missing, at the edge of
/// what a string holds inline (15 bytes), with DEL and every printable byte: each trace handed to an in-memory sink
/// has the id the stream reader reads for its line, and so does each trace read back from a compact log and a
/// version 1 log the replay wrote.
@Suite("Logged commands keep the stream's ids")
struct LoggedCommandIDTests {
    static let definition = """
        {
          "chain": "ids",
          "handlers": [
            { "name": "Heavy", "accepts": { "field": "weight", "min": 5 }, "next": "Rest" },
            { "name": "Rest", "accepts": { "kind": ["Coin", "Token"] } }
          ]
        }
        """

    /// A JSON value for an id: long and short plain text, escapes, non-ASCII, numbers, `null`.
    static func id(_ random: inout SeededGenerator) -> String {
        // Printable ASCII but the quote and the backslash, and DEL, which a JSON string may hold as it is.
        let plain = (0x20...0x7F).map { UInt8($0) }.filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        func text(_ count: Int) -> String {
            String(decoding: (0..<count).map { _ in random.pick(plain) }, as: UTF8.self)
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return "\"\(text(Int.random(in: 0...15, using: &random)))\""
        case 1: return "\"\(text(random.pick([15, 16, 17])))\""
        case 2:
            return
                "\"cmd-\(Int.random(in: 0...999_999, using: &random))-\(Int.random(in: 0...999_999, using: &random))\""
        case 3:
            return
                "\"\(text(Int.random(in: 10...30, using: &random)))\\\"\(text(Int.random(in: 0...10, using: &random)))\""
        case 4: return "\"\(text(Int.random(in: 12...30, using: &random)))\\u00e9\""
        case 5: return "\"ünïcödé-\(text(Int.random(in: 10...20, using: &random)))\""
        case 6: return String(Int.random(in: 1_000_000_000_000_000...Int.max, using: &random))
        case 7: return "null"
        default: return "\"\(text(Int.random(in: 16...60, using: &random)))\""
        }
    }

    /// A stream of commands with those ids (or none), their members in any order.
    static func stream(_ random: inout SeededGenerator, count: Int) -> [UInt8] {
        var text = ""
        for _ in 0..<count {
            var members = [#""kind":"\#(random.pick(["Coin", "Token", "Other"]))""#]
            if random.chance(0.9) { members.append(#""id":\#(id(&random))"#) }
            if random.chance(0.7) { members.append(#""weight":\#(Int.random(in: 0...9, using: &random))"#) }
            if random.chance(0.5) { members.append(#""note":{"a":[1,"x"],"b":null}"#) }
            members.shuffle(using: &random)
            text += "{" + members.joined(separator: random.pick([",", ", "])) + "}\n"
        }
        return Array(text.utf8)
    }

    /// The ids the stream reader reads, line by line, `nil` for none.
    static func ids(in bytes: [UInt8]) throws -> [String?] {
        let reader = CommandStreamReader(bytes: bytes)
        var ids: [String?] = []
        while let (_, item) = try reader.next() {
            if case .command(let command) = item { ids.append(command.id) }
        }
        return ids
    }

    @Test(arguments: SeededGenerator.seeds(24))
    func everyTraceHasItsLinesID(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = Self.stream(&random, count: Int.random(in: 50...400, using: &random))
        let expected = try Self.ids(in: bytes)
        let definition = try ChainDefinition.load(bytes: Array(Self.definition.utf8), file: "ids.json")
        var options = ReplaySession.Options()
        options.readsInLine = random.chance(0.5)
        options.readAheadBatchSize = Int.random(in: 1...64, using: &random)
        let session = try ReplaySession(definition: definition, options: options)

        let memory = InMemoryTraceSink()
        _ = try session.run(session.openStream(bytes: bytes, name: "ids.jsonl"), traceLog: memory)
        #expect(memory.traces.map(\.commandID) == expected, "seed \(seed): in memory")
        // Kept in the payload or made as a string, the trace says the same.
        #expect(memory.traces.allSatisfy { $0 == $0 }, "seed \(seed)")

        for format in [TraceLogSink.Format.compact, .jsonLines] {
            let path = TestFiles.directory.appendingPathComponent("logged-ids-\(seed)-\(format).traces.jsonl").path
            try? FileManager.default.removeItem(atPath: path)
            var logOptions = TraceLogSink.Options()
            logOptions.format = format
            logOptions.whenBehind = .block
            let sink = try TraceLogSink(path: path, options: logOptions)
            _ = try session.run(session.openStream(bytes: bytes, name: "ids.jsonl"), traceLog: sink)
            try sink.close()
            let read = try TraceLogReader(path: path).readAll().traces
            #expect(read.map(\.commandID) == expected, "seed \(seed): \(format) log")
        }
    }

    /// Only a long id that stands in its line as plain text is kept with the fields; the payload then gives it
    /// back as the stream reader reads it, and a trace with no id of its own reports it.
    @Test(arguments: SeededGenerator.seeds(24))
    func onlyLongPlainIDsAreKept(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        // Behind a first line, so that the rest go through the fast decoder, which keeps fields in the line.
        let bytes = Array(#"{"kind":"First"}"#.utf8) + [0x0A] + Self.stream(&random, count: 100)
        let reader = CommandStreamReader(bytes: bytes)
        var kept = 0
        while let (line, item) = try reader.next() {
            guard case .command(let command) = item else { continue }
            let (payload, keepsID) = command.fieldsText(keepingID: true)
            #expect(command.fieldsText(keepingID: false).keepsID == false, "seed \(seed) line \(line)")
            guard let payload else { continue }
            #expect(payload.value == command.fields, "seed \(seed) line \(line)")
            let keptID = payload.withKeptCommandID { String(decoding: $0, as: UTF8.self) }
            #expect(keepsID == (keptID != nil), "seed \(seed) line \(line)")
            if let keptID {
                kept += 1
                #expect(keptID == command.id && keptID.utf8.count > 15, "seed \(seed) line \(line): \(keptID)")
            } else if let id = command.id, id.utf8.count > 15,
                id.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }),
                id.utf8.contains(where: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            {
                // A long id of plain text (not a number) stood in the line as it is: it must have been kept.
                Issue.record("seed \(seed) line \(line): the id \(id) was not kept")
            }
            var trace = Trace(
                id: 1,
                commandKind: command.kind,
                commandID: keepsID ? nil : command.id,
                entry: "A",
                chain: "c",
                hops: [],
                outcome: .fellOffTheEnd,
                duration: 0
            )
            trace.attach(payload)
            #expect(trace.commandID == command.id, "seed \(seed) line \(line)")
            #expect(trace.storedCommandID == (keepsID ? nil : command.id), "seed \(seed) line \(line)")
            #expect(trace.payload == command.fields, "seed \(seed) line \(line)")
        }
        #expect(kept > 0, "seed \(seed): no id was kept")
    }
}
