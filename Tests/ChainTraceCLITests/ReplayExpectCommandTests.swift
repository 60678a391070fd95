import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// `replay DEF STREAM --expect LOG`, run as a user runs it: a log recorded with one generated definition, replayed
/// through a second one that differs in a rule or two, lists exactly the commands whose path or outcome changed
/// (as the library's two runs of the same commands say), exits 1 when any did and 0 when none did.
@Suite("replay --expect against a second definition, through the binary")
struct ReplayExpectCommandTests {
    @Test(arguments: SeededGenerator.seeds(6))
    func divergencesAreExactlyTheCommandsThatWentDifferently(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (first, _) = GeneratedDefinition.make(&random)
        var second = first
        if case .array(let handlers)? = first["handlers"] {
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let index = Int.random(in: 0..<handlers.count, using: &random)
                guard handlers[index]["registry"] == nil, handlers[index]["role"] == nil else { continue }
                second = second.changing(
                    at: ["handlers", "\(index)", "accepts"],
                    to: GeneratedDefinition.rule(&random)
                )
            }
        }
        let directory = try CLI.temporaryDirectory()
        let firstPath = try CLI.write(Array(CLI.literal(first).utf8), named: "first.chain.json", in: directory)
        let secondPath = try CLI.write(Array(CLI.literal(second).utf8), named: "second.chain.json", in: directory)
        let commands = (0..<15).map { index in
            JSONCommand(
                kind: random.pick(["Tap", "Swipe", "Coin"]),
                id: "c\(index)",
                fields: [
                    "size": .string(random.pick(["S", "M", "L"])),
                    "weight": .integer(Int64.random(in: 1...9, using: &random)),
                    "card": ["type": .string(random.pick(["visa", "amex"]))],
                ]
            )
        }
        let stream =
            commands.map { command in
                CLI.literal(
                    .object(["kind": .string(command.kind), "id": .string(command.id!)]).merging(command.fields)
                )
            }.joined(separator: "\n") + "\n"
        let streamPath = try CLI.write(Array(stream.utf8), named: "commands.jsonl", in: directory)
        let log = directory.appendingPathComponent("first.traces.jsonl").path
        let record = try CLI.run("replay", firstPath, streamPath, "--trace-out", log)
        #expect([0, 1].contains(record.status), "seed \(seed): \(record.standardError)")

        // What should differ: the same commands through both definitions, in the library.
        func run(_ value: JSONValue) throws -> [Trace] {
            var writer = JSONWriter()
            writer.write(value)
            let chain = try ChainDefinition.load(bytes: writer.bytes, file: "d.json").makeChain(
                unknownTypes: .modelFromRules
            )
            let sink = InMemoryTraceSink()
            chain.recorder = Recorder(sink: sink)
            for command in commands { _ = try? chain.send(command) }
            return sink.traces
        }
        let changed = zip(try run(first), try run(second))
            .filter { $0.path != $1.path || $0.outcome != $1.outcome }.map { $0.0.commandID ?? "" }

        let replay = try CLI.run("replay", secondPath, streamPath, "--expect", log, "--format", "json")
        #expect(
            replay.status == (changed.isEmpty ? 0 : 1),
            "seed \(seed): exit \(replay.status), changed \(changed): \(replay.standardError)"
        )
        let report = try JSONDocument(bytes: Array(replay.standardOutput.utf8), file: "replay.json").root
        guard case .array(let divergences)? = report["comparison"]?["divergences"] else {
            Issue.record("seed \(seed): no comparison in \(replay.standardOutput.prefix(200))")
            return
        }
        let listed = divergences.compactMap { $0["command"]?.stringValue }
        #expect(report["comparison"]?["compared"] == .integer(Int64(commands.count)), "seed \(seed)")
        #expect(listed.sorted() == changed.sorted(), "seed \(seed): listed \(listed), changed \(changed)")
    }
}

extension JSONValue {
    /// This object with `other`'s members added.
    fileprivate func merging(_ other: JSONValue) -> JSONValue {
        guard case .object(var members) = self, case .object(let more) = other else { return self }
        members.merge(more) { first, _ in first }
        return .object(members)
    }
}
