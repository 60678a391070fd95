import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Definitions and logs whose names hold anything — escape sequences, bidi overrides, DOT and HTML punctuation,
/// newlines — run through every command as a user runs them: text output shows every name and never lets one
/// act on the terminal, JSON output keeps every name exactly, and diagrams render.
@Suite("Commands on hostile names")
struct HostileNameCommandTests {
    /// `text` as a JSON string literal.
    static func json(_ text: String) -> String { CLI.literal(.string(text)) }

    /// Scalars a terminal acts on rather than shows (newline and tab aside).
    static func activeScalars(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A, 0x09: false
            case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(8))
    func textNeverActsJSONStaysExactDiagramsRender(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let names = (0..<4).map { random.hostileName(maximumLength: 8) + "·\($0)" }
        let directory = try CLI.temporaryDirectory()
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let handlers = names.enumerated().map { index, name in
            let next = index + 1 < names.count ? #","next":\#(Self.json(names[index + 1]))"# : ""
            return
                #"{"name":\#(Self.json(name)),"accepts":{"kind":"K\#(index)"},"fails":{"when":{"kind":"F\#(index)"},"error":\#(Self.json(random.hostileName()))}\#(next)}"#
        }
        try #"{"chain":\#(Self.json(random.hostileName())),"handlers":[\#(handlers.joined(separator: ","))]}"#
            .write(toFile: file("hostile.chain.json"), atomically: true, encoding: .utf8)
        let commands = (0..<20).map { index in
            #"{"kind":"\#(random.pick(["K0", "K1", "K2", "K3", "F1", "F2", "None"]))","id":\#(Self.json(random.hostileName() + String(index)))}"#
        }
        try (commands.joined(separator: "\n") + "\n").write(
            toFile: file("hostile.jsonl"),
            atomically: true,
            encoding: .utf8
        )

        let replay = try CLI.binary.run([
            "replay", file("hostile.chain.json"), file("hostile.jsonl"), "--trace-out", file("log.jsonl"),
        ])
        #expect(replay.status == 0, "seed \(seed): \(replay.standardError)")
        let runs: [[String]] = [
            ["validate", file("hostile.chain.json")],
            ["which", file("hostile.chain.json"), #"{"kind":"K3"}"#],
            ["which", file("hostile.chain.json"), #"{"kind":"F2"}"#],
            ["stats", file("log.jsonl")],
            ["diff", file("log.jsonl"), file("log.jsonl")],
            ["replay", file("hostile.chain.json"), file("hostile.jsonl"), "--expect", file("log.jsonl")],
            ["render", file("hostile.chain.json"), "--trace", file("log.jsonl"), "-o", file("profile.svg")],
            ["render", file("hostile.chain.json"), "-o", file("structure.svg")],
        ]
        for arguments in [replay] + (try runs.map { try CLI.binary.run($0) }) {
            #expect([0, 1].contains(arguments.status), "seed \(seed): \(arguments.standardError)")
            let active = Self.activeScalars(in: arguments.standardOutput + arguments.standardError)
            #expect(
                active.isEmpty,
                "seed \(seed): raw \(active.map { String($0.value, radix: 16) }) reached the terminal"
            )
        }
        // JSON output keeps names exactly.
        // (Read with our strict parser: Foundation's drops a U+FEFF inside strings.)
        let output = try CLI.binary.run(["stats", file("log.jsonl"), "--format", "json"])
        let stats = try JSONDocument(bytes: Array(output.standardOutput.utf8), file: "stats.json").root
        guard case .object(let object) = stats, case .array(let handlerValues)? = object["handlers"] else {
            Issue.record("seed \(seed): stats printed \(output.standardOutput)")
            return
        }
        let reported = handlerValues.compactMap { value -> String? in
            guard case .object(let handler) = value, case .string(let name)? = handler["handler"] else { return nil }
            return name
        }
        #expect(Set(reported).isSubset(of: Set(names)) && !reported.isEmpty, "seed \(seed): \(reported) vs \(names)")
        #expect(FileManager.default.fileExists(atPath: file("profile.svg")))
    }

    /// The commands that write files or code from a log — gen-tests, both exports, a command's path — on logs whose
    /// names hold anything: each succeeds, its output is what its format promises (JSON that parses, folded lines
    /// with a value each, DOT that renders), and nothing on the terminal acts.
    @Test(arguments: SeededGenerator.seeds(5))
    func writersOfFilesAndCodeHandleHostileLogs(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let names = (0..<3).map { random.hostileName(maximumLength: 6) + "·\($0)" }
        let traces = (0..<6).map { index in
            let length = Int.random(in: 1...3, using: &random)
            let hops = (0..<length).map { position in
                Hop(
                    handler: names[position],
                    position: position,
                    decision: position == length - 1 ? .accepted : .passed,
                    reason: random.chance(0.5) ? random.hostileName() : nil,
                    inclusiveDuration: 10,
                    selfDuration: 10
                )
            }
            return Trace(
                id: UInt64(index),
                commandKind: random.hostileName(),
                commandID: "id\(index)" + random.hostileName(maximumLength: 3),
                payload: ["note": .string(random.hostileName())],
                entry: names[0],
                chain: random.hostileName(),
                hops: hops,
                outcome: .accepted(by: names[length - 1]),
                duration: UInt64(10 * length)
            )
        }
        let directory = try CLI.temporaryDirectory()
        let log = try CLI.write(
            TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] },
            named: "hostile.jsonl",
            in: directory
        )
        let runs: [[String]] = [
            ["gen-tests", log], ["export", log, "--to", "chrome"], ["export", log, "--to", "folded"],
            ["render", "--trace", log, "--command", "3", "--format", "dot"],
            ["render", "--trace", log, "--format", "svg"],
        ]
        for arguments in runs {
            let output = try CLI.binary.run(arguments)
            #expect(output.status == 0, "seed \(seed): \(arguments[0]): \(output.standardError)")
            let active = Self.activeScalars(in: output.standardError)
            #expect(active.isEmpty, "seed \(seed): \(arguments[0]) let \(active) reach the terminal")
        }
        let chrome = try CLI.binary.run(["export", log, "--to", "chrome"])
        _ = try JSONDocument(bytes: Array(chrome.standardOutput.utf8), file: "chrome.json")
        let folded = try CLI.binary.run(["export", log, "--to", "folded"])
        for line in Array(folded.standardOutput.utf8).split(separator: 0x0A) {
            let value = line.lastIndex(of: 0x20).map { String(decoding: line[($0 + 1)...], as: UTF8.self) }
            #expect(value.flatMap { UInt64($0) } != nil, "seed \(seed): a folded line without a value")
        }
    }
}
