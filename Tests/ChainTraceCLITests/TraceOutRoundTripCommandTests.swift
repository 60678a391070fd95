import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `replay --trace-out`, run as a user runs it on generated definitions and streams: the log it writes holds one
/// trace per command with the path and outcome the replay printed, ids and payloads kept — ids short and long
/// (a long plain one rides in the logged payload, not as a string of its trace's own), with escapes and
/// non-ASCII text — and that log, replayed as a stream through the same definition, takes every command down the
/// same path again.
@Suite("replay --trace-out round trip, through the binary")
struct TraceOutRoundTripCommandTests {
    static func paths(_ output: BuiltProduct.Output, seed: UInt64) throws -> [(
        id: String?, path: JSONValue?, outcome: JSONValue?
    )] {
        let report = try JSONDocument(bytes: Array(output.standardOutput.utf8), file: "replay.json").root
        guard case .array(let paths)? = report["paths"] else {
            Issue.record("seed \(seed): replay printed \(output.standardOutput.prefix(200))")
            return []
        }
        return paths.map { ($0["id"]?.stringValue, $0["path"], $0["outcome"]) }
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func theLogHoldsWhatTheReplayPrintedAndReplaysTheSame(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (definition, _) = GeneratedDefinition.make(&random)
        let directory = try CLI.temporaryDirectory()
        let definitionPath = try CLI.write(Array(CLI.literal(definition).utf8), named: "g.chain.json", in: directory)
        let ids = (0..<Int.random(in: 1...25, using: &random)).map { index in
            switch Int.random(in: 0..<3, using: &random) {
            case 0: "c\(index)"
            case 1:
                "cmd-\(index)-\(Int.random(in: 100_000...999_999, using: &random))-\(random.pick(["long", "longer-still"]))"
            default: "id-\(index)-" + random.hostileName(maximumLength: 24)
            }
        }
        let lines = ids.map { id in
            CLI.literal(
                .object([
                    "kind": .string(random.pick(["Tap", "Swipe", "Coin"])), "id": .string(id),
                    "size": .string(random.pick(["S", "M"])),
                    "weight": .double(Double(Int.random(in: 0...40, using: &random)) / 4),
                    "name": .string(random.hostileName(maximumLength: 4)),
                ])
            )
        }
        let stream = try CLI.write(Array((lines.joined(separator: "\n") + "\n").utf8), named: "s.jsonl", in: directory)
        let log = directory.appendingPathComponent("out.traces.jsonl").path

        let first = try CLI.run(
            "replay",
            definitionPath,
            stream,
            "--trace-out",
            log,
            "--format",
            "json",
            "--paths",
            "1000"
        )
        #expect([0, 1].contains(first.status), "seed \(seed): \(first.standardError)")
        let printed = try Self.paths(first, seed: seed)
        let recorded = try TraceLogReader.readAll(path: log).traces
        #expect(recorded.count == lines.count && printed.count == lines.count, "seed \(seed)")
        #expect(recorded.map(\.commandID) == ids, "seed \(seed): the log's ids are not the stream's")
        for (trace, line) in zip(recorded, printed) {
            #expect(trace.commandID == line.id, "seed \(seed)")
            #expect(line.path == .array(trace.path.map { .string($0) }), "seed \(seed): \(trace.commandID ?? "")")
            #expect(trace.payload?["name"] != nil, "seed \(seed): the payload was not kept")
        }

        let again = try CLI.run("replay", definitionPath, log, "--format", "json", "--paths", "1000")
        let replayed = try Self.paths(again, seed: seed)
        #expect(replayed.map(\.path) == printed.map(\.path), "seed \(seed): the log replayed differently")
        #expect(replayed.map(\.outcome) == printed.map(\.outcome), "seed \(seed)")
    }
}
