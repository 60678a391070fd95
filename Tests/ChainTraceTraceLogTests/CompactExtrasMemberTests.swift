import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A compact trace's extras hold only the members its segment's version defines, and a member that is not one is
/// named where it is: a version 2 segment refuses version 3's `parents`, and an unknown member's error names the
/// member rather than quoting its value. On generated traces with nested hops, read by both decoders.
@Suite("Compact extras members, by version")
struct CompactExtrasMemberTests {
    /// A trace whose hops nest (so its extras carry `parents`), with or without an id and reasons.
    static func nestedTrace(_ random: inout SeededGenerator) -> Trace {
        let count = Int.random(in: 2...6, using: &random)
        var hops: [Hop] = []
        for position in 0..<count {
            let parent = position == 0 ? nil : Int.random(in: 0..<position, using: &random)
            hops.append(
                Hop(
                    handler: "H\(position)",
                    position: position,
                    decision: position == count - 1 ? .accepted : .passed,
                    parent: parent,
                    startOffset: UInt64(position * 10),
                    inclusiveDuration: UInt64((count - position) * 10),
                    selfDuration: 5
                )
            )
        }
        return Trace(
            id: 1 + random.next() >> 20,
            commandKind: "K",
            commandID: random.chance(0.5) ? "id-\(random.next() % 99)" : nil,
            entry: "H0",
            chain: "c",
            hops: hops,
            outcome: .accepted(by: "H\(count - 1)"),
            duration: UInt64(count * 10)
        )
    }

    /// `trace` as a compact log of `version`, its trace line last; and where in that line its extras' member
    /// `key` starts.
    static func log(of trace: Trace, version: Int) -> (bytes: [UInt8], line: Int, traceLine: [UInt8]) {
        var body: [UInt8] = []
        var encoder = CompactTraceLogEncoder()
        encoder.encode(trace, into: &body)
        let lines = body.split(separator: 0x0A).map(Array.init)
        let header = Array("{\"format\":\"chaintrace-trace-log\",\"version\":\(version)}".utf8)
        let bytes = ([header] + lines).joined(separator: [0x0A]) + [0x0A]
        return (Array(bytes), lines.count + 1, lines.last!)
    }

    static func readError(_ bytes: [UInt8], fastPath: Bool) -> FormatError? {
        let reader = TraceLogReader(bytes: bytes, name: "log.jsonl")
        reader.usesFastPath = fastPath
        do {
            _ = try reader.readAll()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: SeededGenerator.seeds(24))
    func aVersion2SegmentRefusesParentsWhereTheyAre(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let trace = Self.nestedTrace(&random)
        let (version3, _, _) = Self.log(of: trace, version: 3)
        #expect(try TraceLogReader(bytes: version3).readAll().traces.map(\.hops) == [trace.hops], "seed \(seed)")
        let (version2, line, traceLine) = Self.log(of: trace, version: 2)
        let column =
            try #require(String(decoding: traceLine, as: UTF8.self).range(of: "\"parents\":")).upperBound.utf16Offset(
                in: String(decoding: traceLine, as: UTF8.self)
            ) + 1
        for fastPath in [true, false] {
            let error = try #require(
                Self.readError(version2, fastPath: fastPath),
                "seed \(seed): a version 2 log with parents read"
            )
            #expect(error.line == line && error.column == column, "seed \(seed): \(error)")
            #expect(
                error.found == "the member \"parents\"" && error.expected.contains("version 3"),
                "seed \(seed): \(error)"
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(24))
    func anUnknownExtrasMemberIsNamedNotQuoted(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let trace = Self.nestedTrace(&random)
        let (bytes, line, traceLine) = Self.log(of: trace, version: 3)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-é\u{7}")
        let key = "x" + String((0..<Int.random(in: 1...12, using: &random)).map { _ in random.pick(alphabet) })
        let value = "value-that-must-not-be-quoted-\(random.next() % 1000)"
        // The member goes in first: `{"key":"value",…`.
        var keyText = JSONWriter()
        keyText.write(.string(key))
        let inserted = Array("{".utf8) + keyText.bytes + Array(":\"\(value)\",".utf8)
        let brace = try #require(traceLine.lastIndex(of: UInt8(ascii: "{")))
        let changed = Array(traceLine[..<brace]) + inserted + Array(traceLine[(brace + 1)...])
        let log = Array(bytes.dropLast(traceLine.count + 1)) + changed + [0x0A]
        for fastPath in [true, false] {
            let error = try #require(Self.readError(log, fastPath: fastPath), "seed \(seed): an unknown member read")
            #expect(error.line == line, "seed \(seed): \(error)")
            #expect(error.found == "the member \"\(key)\"", "seed \(seed): \(error)")
            #expect(!error.description.contains(value), "seed \(seed): \(error)")
            // Escaped for the terminal, on one line.
            #expect(!error.description.contains("\u{7}") && !error.description.contains("\n"), "seed \(seed)")
        }
    }
}
