import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

@Suite("chaintrace gen-tests")
struct GenTestsCommandTests {
    let log = "Tests/GeneratedTests/vending-machine.traces.jsonl"
    let definition = "Samples/VendingMachine/vending-machine.chain.json"

    @Test func committedGeneratedTestsAreExactlyWhatTheToolWrites() throws {
        // The GeneratedTests target compiles and runs this file; here we prove the tool still writes it.
        let output = try CLI.run("gen-tests", log, "--definition", definition)
        #expect(output.status == 0, "\(output.standardError)")
        let committed = try String(
            contentsOf: BuiltProduct.packageRoot.appendingPathComponent(
                "Tests/GeneratedTests/RecordedVendingMachineTests.swift"
            ),
            encoding: .utf8
        )
        #expect(output.standardOutput == committed)
    }

    @Test func lenientModeChecksOnlyOutcomesAndEscapesStrings() throws {
        let directory = try CLI.temporaryDirectory()
        let stream = directory.appendingPathComponent("odd.jsonl")
        try Data(#"{"id":"weird \"id\"\n","kind":"Tap","note":"tab\there","action":"quit"}"#.utf8 + [10]).write(
            to: stream
        )
        let recorded = try CLI.recordedLog(CLI.fixture("responders.chain.json"), stream.path)
        let file = directory.appendingPathComponent("Generated.swift").path
        let output = try CLI.run("gen-tests", recorded, "--mode", "lenient", "-o", file)
        #expect(output.status == 0)
        let source = try String(contentsOfFile: file, encoding: .utf8)
        #expect(source.contains(#"@Test func command1_weird__id__() throws {"#))
        #expect(
            source.contains(
                #"JSONCommand(kind: "Tap", id: "weird \"id\"\n", fields: .object(["action": .string("quit"), "note": .string("tab\there")]))"#
            )
        )
        #expect(source.contains(#"expectHandled(traces[0], by: "AppDelegate")"#))
        #expect(!source.contains("expectPath"))
        #expect(source.contains("chain = try makeRecordedChain()"))
        // Written to a file, it says so, as every command that writes one does: as many tests as the file holds.
        let tests = source.components(separatedBy: "@Test func").count - 1
        #expect(output.standardError.contains("Wrote \(file): \(tests) test\(tests == 1 ? "" : "s") from 1 file.\n"))
    }

    @Test func badLogIsAnErrorAndWritesNothing() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("Generated.swift").path
        let output = try CLI.run("gen-tests", CLI.fixture("responders.commands.jsonl"), "-o", file)
        #expect(output.status == 2)
        #expect(output.standardError.contains("responders.commands.jsonl:1:1: expected a trace log header"))
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// Two sessions generated into one test target compile side by side: each file's suite type is named from the
    /// file (or `--suite`), so they do not both declare `RecordedSessionTests`.
    @Test func filesGeneratedIntoOneTargetNameTheirSuitesApart() throws {
        let directory = try CLI.temporaryDirectory()
        var names: [String] = []
        for (file, suite) in [
            ("RecordedLoginTests.swift", nil), ("checkout-session.swift", nil), ("Other.swift", "MyOwnSuite"),
        ] {
            let path = directory.appendingPathComponent(file).path
            let output = try CLI.run(
                ["gen-tests", log, "--definition", definition, "-o", path] + (suite.map { ["--suite", $0] } ?? [])
            )
            #expect(output.status == 0, "\(output.standardError)")
            let source = try String(contentsOfFile: path, encoding: .utf8)
            names += source.split(separator: "\n").filter { $0.hasPrefix("struct ") }.map(String.init)
        }
        #expect(names == ["struct RecordedLoginTests {", "struct CheckoutSessionTests {", "struct MyOwnSuite {"])

        let bad = try CLI.run("gen-tests", log, "--suite", "checkout-tests")
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--suite: expected a Swift type name"))
        #expect(bad.standardOutput.isEmpty)
    }

    /// `--distinct`: one test per behaviour (kind, entry, path with decisions, outcome) from the first command that
    /// behaved so, its doc comment counting the commands alike — checked against the behaviours of the generated
    /// log as the library reads it.
    @Test(arguments: SeededGenerator.seeds(4))
    func distinctWritesOneTestPerBehaviourFromItsFirstCommand(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 20...200, using: &random))
        let directory = try CLI.temporaryDirectory()
        let log = try CLI.write(
            LogCommandsAgreeWithLibraryTests.bytes(traces, compact: random.chance(0.5)),
            named: "session.jsonl",
            in: directory
        )
        let output = try CLI.run(
            "gen-tests",
            log,
            "--distinct",
            "-o",
            directory.appendingPathComponent("Distinct.swift").path
        )
        #expect(output.status == 0, "seed \(seed): \(output.standardError)")
        let source = try String(contentsOf: directory.appendingPathComponent("Distinct.swift"), encoding: .utf8)

        // The behaviours, in the order first met, with how many commands each.
        var firsts: [String] = []
        var counts: [String: Int] = [:]
        var keys: [String] = []
        for trace in traces {
            let key =
                "\(trace.commandKind)|\(trace.entry)|\(trace.hops.map { "\($0.handler):\($0.decision)" })|\(trace.outcome)"
            if counts[key] == nil {
                keys.append(key)
                firsts.append(trace.commandID!)
            }
            counts[key, default: 0] += 1
        }
        let tests = source.split(separator: "\n").filter { $0.contains("@Test func ") }
        #expect(tests.count == keys.count, "seed \(seed)")
        let ids = source.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("/// Line "), let start = line.range(of: "command \"")?.upperBound else { return nil }
            return String(line[start...].prefix { $0 != "\"" })
        }
        #expect(ids == firsts, "seed \(seed)")
        let stated = source.split(separator: "\n").compactMap { line -> Int? in
            if line.contains("The only command in the log") { return 1 }
            guard let start = line.range(of: "The first of ")?.upperBound else { return nil }
            return Int(line[start...].prefix { $0.isNumber })
        }
        #expect(stated == keys.map { counts[$0]! }, "seed \(seed)")
        #expect(output.standardError.contains("Wrote "), "seed \(seed)")
        #expect(
            output.standardError.contains(
                "\(keys.count) test\(keys.count == 1 ? "" : "s") from \(traces.count) commands in 1 file."
            ),
            "seed \(seed): \(output.standardError)"
        )
    }
}
