import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// `chaintrace which` and `chaintrace replay`, run as a user runs them on generated definitions and commands,
/// agree on every command's path and outcome — `which` exits 0 exactly when `replay` shows the command taken —
/// and `which @FILE` with more than one command is an error naming the second, never a silent answer for the first.
@Suite("which agrees with replay, through the binary")
struct WhichAgreesWithReplayCommandTests {
    static func json(_ value: JSONValue) -> String { CLI.literal(value) }

    static func command(_ random: inout SeededGenerator) -> JSONValue {
        var members: [String: JSONValue] = ["kind": .string(random.pick(["Tap", "Swipe", "Coin", "Other"]))]
        if random.chance(0.7) { members["size"] = .string(random.pick(["S", "M", "L"])) }
        if random.chance(0.7) {
            members["weight"] = random.pick([.integer(2), .double(2.5), .integer(7), .integer(12)])
        }
        if random.chance(0.5) { members["card"] = .object(["type": .string(random.pick(["visa", "amex"]))]) }
        if random.chance(0.3) { members["name"] = .string("ada") }
        return .object(members)
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func everyCommandTakesTheSamePathInBoth(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (definition, _) = GeneratedDefinition.make(&random)
        let directory = try CLI.temporaryDirectory()
        let definitionPath = try CLI.write(
            Array(Self.json(definition).utf8),
            named: "generated.chain.json",
            in: directory
        )
        let commands = (0..<8).map { _ in Self.command(&random) }
        let streamPath = try CLI.write(
            Array((commands.map(Self.json).joined(separator: "\n") + "\n").utf8),
            named: "commands.jsonl",
            in: directory
        )

        let replay = try CLI.run("replay", definitionPath, streamPath, "--format", "json")
        #expect([0, 1].contains(replay.status), "seed \(seed): \(replay.standardError)")
        let report = try JSONDocument(bytes: Array(replay.standardOutput.utf8), file: "replay.json").root
        guard case .array(let paths)? = report["paths"], paths.count == commands.count else {
            Issue.record("seed \(seed): replay printed \(replay.standardOutput.prefix(300))")
            return
        }
        for (command, replayed) in zip(commands, paths) {
            let which = try CLI.run("which", definitionPath, Self.json(command), "--format", "json")
            let answer = try JSONDocument(bytes: Array(which.standardOutput.utf8), file: "which.json").root
            #expect(answer["path"] == replayed["path"], "seed \(seed): \(Self.json(command))")
            #expect(
                answer["outcome"] == replayed["outcome"],
                "seed \(seed): \(Self.json(command)): which \(answer["outcome"].map(Self.json) ?? "-"), replay \(replayed["outcome"].map(Self.json) ?? "-")"
            )
            let taken = replayed["outcome"]?["kind"]?.stringValue == "accepted"
            #expect(which.status == (taken ? 0 : 1), "seed \(seed): which exited \(which.status)")
        }

        let twoPath = directory.appendingPathComponent("two.jsonl").path
        try (Self.json(commands[0]) + "\n\n" + Self.json(commands[1]) + "\n").write(
            toFile: twoPath,
            atomically: true,
            encoding: .utf8
        )
        let two = try CLI.run("which", definitionPath, "@" + twoPath)
        #expect(two.status == 2, "seed \(seed)")
        #expect(
            two.standardError.contains("two.jsonl:3: expected one command, found another"),
            "seed \(seed): \(two.standardError)"
        )
    }
}
