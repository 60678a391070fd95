import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Whole generated streams — key orders changing from line to line, repeated keys, nested values, escapes, bad
/// lines between good ones — read with slots for the fields rules use (the fast decoder remembering keys from line
/// to line) and without: the same commands, the same errors at the same places, line for line. And nesting deeper
/// than the limit is an error at the bracket that goes too deep, in every reader, never a crash.
@Suite("Whole streams on both decoders")
struct WholeStreamDifferentialTests {
    enum Reading: Equatable {
        case command(line: Int, kind: String, id: String?, entry: String?, fields: JSONValue)
        case error(line: Int, column: Int, expected: String)
    }

    static func read(_ bytes: [UInt8], schema: FieldSchema?) -> [Reading] {
        let reader = CommandStreamReader(bytes: bytes, name: "s.jsonl", schema: schema)
        var out: [Reading] = []
        while out.count < 2_000 {
            do {
                guard let (line, item) = try reader.next() else { break }
                if case .command(let command) = item {
                    out.append(
                        .command(
                            line: line,
                            kind: command.kind,
                            id: command.id,
                            entry: command.entry,
                            fields: command.fields
                        )
                    )
                }
            } catch {
                out.append(.error(line: error.line, column: error.column, expected: error.expected))
            }
        }
        return out
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func slotsAndNoSlotsReadEveryLineAlike(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            if random.chance(0.1) {
                lines.append(random.pick([#"{"kind":"#, #"{"kind":"K",}"#, "[]", #"{"kind":"K","w":1,"w":2}"#]))
            } else {
                // Runs of the same shape, so the fast decoder's remembered keys are used, then broken.
                let line = StreamDecoderDifferentialTests.line(&random)
                lines += Array(repeating: line, count: Int.random(in: 1...3, using: &random))
            }
        }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let schema = FieldSchema(names: ["w", "c", "nested", "p"])
        #expect(Self.read(bytes, schema: schema) == Self.read(bytes, schema: nil), "seed \(seed)")
    }

    @Test func nestingDeeperThanTheLimitIsAnErrorInEveryReader() throws {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let document = try #require(throws: FormatError.self) {
            try JSONDocument(bytes: Array(deep.utf8), file: "d.json")
        }
        #expect(document.expected.contains("levels of nesting") && document.column == 513, "\(document)")
        let stream = CommandStreamReader(bytes: Array((#"{"kind":"K","x":"# + deep + "}\n").utf8), name: "s")
        let streamError = try #require(throws: FormatError.self) { _ = try stream.next() }
        #expect(streamError.expected.contains("levels of nesting"), "\(streamError)")
        let log =
            TraceLogFormat.header + [0x0A]
            + Array(#"{"chain":"c","chainVersion":0,"command":{"kind":"K","payload":"#.utf8) + Array(deep.utf8)
            + Array(
                #"},"durationNs":0,"entry":"A","hops":[],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":0}"#
                    .utf8
            ) + [0x0A]
        let logError = try #require(throws: FormatError.self) { _ = try TraceLogReader(bytes: log).readAll() }
        #expect(logError.line == 2 && logError.expected.contains("levels of nesting"), "\(logError)")
        let definition = Array((#"{"chain":"c","handlers":[{"name":"A","options":"# + deep + "}]}").utf8)
        #expect(throws: FormatError.self) { try ChainDefinition.load(bytes: definition, file: "c.json") }
    }
}
