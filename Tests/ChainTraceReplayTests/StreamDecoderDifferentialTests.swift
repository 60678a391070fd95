import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// The stream's fast decoder (lines after the first, slots filled, keys remembered from the line before) and the
/// general one (a stream's first line goes through it) read every line alike: the same command, or the same error
/// at the same column. Lines are generated with keys in random orders, repeated keys at the top and nested,
/// escapes, numbers in every form, and nested values.
@Suite("Fast and general stream decoders agree")
struct StreamDecoderDifferentialTests {
    static func value(_ random: inout SeededGenerator, depth: Int) -> String {
        let scalars = [
            "1", "-0", "2.5", "1e3", "-1.25E-2", "12345678901234567890", "0.1", "true", "false", "null", #""x""#,
            #""é\n\u0041""#, #""a\"b""#, #""""#,
            // Escapes of every kind, and numbers at a 64-bit float's edges, that the fast path steps over.
            #""\u00e9\ud83d\ude00\/\b\f\r\t""#, #""é-1 \"q\" \\ ok""#, "-1E-400", "1.5e+308", "0e0", "1E+2",
            "1" + String(repeating: "0", count: 299), "1" + String(repeating: "0", count: 299) + ".5e-3",
        ]
        // Now and then one the general parser rejects, which the fast path must refuse too.
        let rejected = [
            #""\uD800""#, #""\uDC00x""#, #""\uD800\u0041""#, #""\x""#, #""\u12G4""#, #""\u00""#, "\"a\tb\"", #""\""#,
            "1e400", "2e308", "-1.7e309", String(repeating: "9", count: 320), "01", "1.", "1e", "-",
        ]
        if random.chance(0.03) { return random.pick(rejected) }
        if depth > 1 || random.chance(0.7) { return random.pick(scalars) }
        if random.chance(0.5) {
            return "["
                + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) }.joined(
                    separator: ","
                ) + "]"
        }
        let keys = (0..<Int.random(in: 0...3, using: &random)).map { _ in random.pick(["x", "y", "x", "z"]) }
        return "{" + keys.map { #""\#($0)":\#(value(&random, depth: depth + 1))"# }.joined(separator: ",") + "}"
    }

    static func line(_ random: inout SeededGenerator) -> String {
        var members = [#""kind":"\#(random.pick(["A", "B", #"\u0041"#, #"B\"\/"#]))""#]
        for key in ["id", "entry", "w", "c", "p", "nested", "long-member-name-here"] where random.chance(0.6) {
            switch key {
            case "id":
                let ids = [#""i1""#, "7", "null", #""é""#, #""a\"b\u00e9\ud83d\ude00\n""#, #""\uD800""#, #""\q""#]
                members.append(#""id":\#(random.pick(ids))"#)
            case "entry": members.append(#""entry":\#(random.pick([#""H""#, "null", #""\u0048""#]))"#)
            default: members.append(#""\#(key)":\#(value(&random, depth: 0))"#)
            }
        }
        // A repeated member, now and then: top-level, read into a slot, or unread.
        if random.chance(0.25) { members.append(random.pick(members)) }
        if random.chance(0.05) { members.append(#""k\u0069nd":"C""#) }
        return "{" + members.shuffled(using: &random).joined(separator: random.pick([",", ", "])) + "}"
    }

    enum Reading: Equatable {
        case command(kind: String, id: String?, entry: String?, fields: JSONValue)
        case error(column: Int, expected: String)
    }

    static func read(_ reader: CommandStreamReader, skipping: Int) -> Reading {
        do {
            for _ in 0..<skipping { _ = try reader.next() }
            guard case (_, .command(let command))? = try reader.next() else {
                return .error(column: -1, expected: "a command")
            }
            return .command(kind: command.kind, id: command.id, entry: command.entry, fields: command.fields)
        } catch {
            return .error(column: error.column, expected: error.expected)
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func everyLineReadsAlikeOnBothPaths(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let schema = FieldSchema(names: ["w", "c", "nested"])
        var warmUp = Self.line(&random)
        for _ in 0..<100 {
            let line = Self.line(&random)
            let general = Self.read(CommandStreamReader(bytes: Array((line + "\n").utf8)), skipping: 0)
            // Two lines before it, so the decoder remembers keys (often the same ones, in the same order).
            let stream = [warmUp, warmUp, line].joined(separator: "\n") + "\n"
            let fast = Self.read(CommandStreamReader(bytes: Array(stream.utf8), schema: schema), skipping: 2)
            let warmUpReads = Self.read(CommandStreamReader(bytes: Array((warmUp + "\n").utf8)), skipping: 0)
            if case .command = warmUpReads {
                #expect(fast == general, "seed \(seed): \(line) after \(warmUp)")
            }
            if random.chance(0.5) { warmUp = line }
        }
    }

    /// One decoder over a long stream whose lines draw their keys from more keys than get ids (some longer than a
    /// remembered key, some with a space before the colon), in varying order, now and then one twice: every line
    /// reads as a general reader of that line alone reads it — the same command, or the same error at the same
    /// column.
    @Test(arguments: SeededGenerator.seeds(20))
    func keysBeyondTheIdentifiedOnesStillReadAlike(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pool = (0..<90).map { number in
            random.chance(0.2) ? "a-key-longer-than-thirteen-\(number)" : "k\(number)"
        }
        var lines: [String] = []
        for _ in 0..<300 {
            var members = [#""kind":"K""#, #""w":\#(Int.random(in: 0..<100, using: &random))"#]
            for key in pool.shuffled(using: &random).prefix(Int.random(in: 0..<20, using: &random)) {
                members.append(#""\#(key)"\#(random.chance(0.1) ? " " : ""):\#(Int.random(in: 0..<9, using: &random))"#)
            }
            if random.chance(0.15) { members.append(random.pick(members)) }
            lines.append("{" + members.shuffled(using: &random).joined(separator: ",") + "}")
        }
        let reader = CommandStreamReader(
            bytes: Array((lines.joined(separator: "\n") + "\n").utf8),
            schema: FieldSchema(names: ["w"])
        )
        for line in lines {
            let fast: Reading
            do {
                guard case (_, .command(let command))? = try reader.next() else {
                    Issue.record("no command")
                    return
                }
                fast = .command(kind: command.kind, id: command.id, entry: command.entry, fields: command.fields)
            } catch {
                fast = .error(column: error.column, expected: error.expected)
            }
            let general = Self.read(CommandStreamReader(bytes: Array((line + "\n").utf8)), skipping: 0)
            #expect(fast == general, "seed \(seed): \(line)")
        }
    }

    @Test func aRepeatedKeyIsRejectedWithItsPositionOnEveryPath() {
        for line in [
            #"{"kind":"Coin","kind":"Other"}"#, #"{"kind":"K","w":1,"w":2}"#, #"{"kind":"K","q":{"a":1,"a":2}}"#,
        ] {
            let stream = [#"{"kind":"K","w":1}"#, #"{"kind":"K","w":1}"#, line].joined(separator: "\n") + "\n"
            let reader = CommandStreamReader(
                bytes: Array(stream.utf8),
                name: "dup.jsonl",
                schema: FieldSchema(names: ["w"])
            )
            do {
                while try reader.next() != nil {}
                Issue.record("\(line) was accepted")
            } catch {
                #expect(error.line == 3 && error.expected == "each member name once in an object", "\(error)")
            }
        }
    }

    /// Everything a reader gives for `text`: each command or error, in order, and a torn tail if any.
    static func readAll(_ text: String, schema: FieldSchema?) -> [Reading] {
        let reader = CommandStreamReader(bytes: Array(text.utf8), name: "s.jsonl", schema: schema)
        var readings: [Reading] = []
        while readings.count < 1_000 {
            do {
                guard let (_, item) = try reader.next() else { break }
                if case .command(let command) = item {
                    readings.append(
                        .command(kind: command.kind, id: command.id, entry: command.entry, fields: command.fields)
                    )
                }
            } catch {
                readings.append(.error(column: error.column, expected: "\(error.line): \(error.expected)"))
            }
        }
        if let torn = reader.tornTail { readings.append(.error(column: -2, expected: "torn \(torn.line)")) }
        return readings
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func aStreamWithoutAFinalNewlineReadsExactlyLikeOneWithIt(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let lines = (0..<Int.random(in: 1...6, using: &random)).map { _ in
            let line = Self.line(&random)
            // Some lines cut short, as a person or a dying writer leaves them.
            return random.chance(0.3) ? String(line.prefix(Int.random(in: 1...line.count, using: &random))) : line
        }
        let text = lines.joined(separator: "\n")
        for schema in [nil, FieldSchema(names: ["w", "c"])] {
            #expect(
                Self.readAll(text, schema: schema) == Self.readAll(text + "\n", schema: schema),
                "seed \(seed): \(text)"
            )
        }
    }

    @Test func aTraceLogLineWithARepeatedKeyIsRejected() {
        let header = #"{"format":"chaintrace-trace-log","version":1}"#
        let good =
            #"{"chain":"c","chainVersion":0,"command":{"kind":"K"},"durationNs":1,"entry":"A","hops":[{"decision":"accepted","handler":"A","inclusiveNs":1,"position":0,"selfNs":1,"startOffsetNs":0}],"id":1,"outcome":{"handler":"A","kind":"accepted"},"startTimeNs":1}"#
        // Each member written twice: at the top, in a hop, in the command.
        for member in [#""chain":"c""#, #""selfNs":1"#, #""kind":"K""#] {
            let bad = good.replacingFirst(member, with: member + "," + member)
            let text = [header, good, bad].joined(separator: "\n") + "\n"
            do {
                _ = try TraceLogReader(bytes: Array(text.utf8), name: "dup.jsonl").readAll()
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.line == 3 && error.expected == "each member name once in an object", "\(error)")
            }
        }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
