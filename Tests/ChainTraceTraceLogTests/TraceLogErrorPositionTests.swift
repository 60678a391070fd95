import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// A trace log line that is valid JSON but not a valid trace is an error at the line *and column* of the value at
/// fault — the wrong value itself, or the object a required member is missing from — never a column of 0.
@Suite("Trace log errors name the column")
struct TraceLogErrorPositionTests {
    static func trace(_ random: inout SeededGenerator) -> Trace {
        let names = ["A", "B", "C"]
        let count = Int.random(in: 1...3, using: &random)
        let hops = (0..<count).map { position in
            Hop(
                handler: names[position],
                position: position,
                decision: position == count - 1 ? .accepted : .passed,
                registry: random.chance(0.3) ? "R" : nil,
                startOffset: UInt64(position),
                inclusiveDuration: 5,
                selfDuration: 1
            )
        }
        return Trace(
            id: random.next() >> 1,
            commandKind: "K",
            commandID: random.chance(0.5) ? "c" : nil,
            entry: "A",
            chain: "c",
            hops: hops,
            outcome: .accepted(by: names[count - 1]),
            duration: 9
        )
    }

    /// Every member path of a trace's value that decoding requires or type-checks, with the object holding it.
    static func paths(in value: JSONValue, prefix: String = "") -> [[String]] {
        var result: [[String]] = []
        switch value {
        case .object(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) where key != "payload" {
                result.append((prefix.isEmpty ? [] : [prefix]) + [key])
                if case .object = member { result += paths(in: member, prefix: key).map { [$0[0]] + $0.dropFirst() } }
                if key == "hops", case .array(let hops) = member {
                    for (index, hop) in hops.enumerated() {
                        guard case .object(let hopMembers) = hop else { continue }
                        for hopKey in hopMembers.keys.sorted() where hopKey != "reason" && hopKey != "registry" {
                            result.append(["hops", "\(index)", hopKey])
                        }
                    }
                }
            }
        default: break
        }
        return result
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func aWrongOrMissingFieldIsReportedWhereItIs(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let trace = Self.trace(&random)
        let value = TraceLogFormat.value(of: trace)
        let path = random.pick(Self.paths(in: value))
        let removes = random.chance(0.5)
        // `true` is no field's type: every member is a string, a number, an array or an object.
        let changed = value.changing(at: path[...], to: removes ? nil : .bool(true))
        var writer = JSONWriter()
        writer.write(changed)
        let line = writer.bytes
        let log = TraceLogFormat.header + [0x0A] + line + [0x0A]
        do {
            _ = try TraceLogReader(bytes: log, name: "log.jsonl").readAll()
            // A removed optional member (the command's id) reads fine.
            #expect(
                removes && path == ["command", "id"],
                "seed \(seed): \(path) \(removes ? "removed" : "changed") was accepted"
            )
        } catch {
            #expect(error.line == 2, "seed \(seed): \(error)")
            #expect(error.column >= 1 && error.column <= line.count, "seed \(seed): \(error)")
            let at = line[max(0, min(line.count - 1, error.column - 1))]
            // The wrong value itself, or the object the member is missing from.
            #expect(
                at == (removes ? UInt8(ascii: "{") : UInt8(ascii: "t")),
                "seed \(seed): \(path): column \(error.column) is at \(Unicode.Scalar(at))"
            )
            #expect(error.description.contains("log.jsonl:2:\(error.column):"), "seed \(seed): \(error.description)")
        }
    }
}
