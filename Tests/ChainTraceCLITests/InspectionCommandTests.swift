import ChainTraceTestSupport
import Foundation
import Testing

@Suite("chaintrace which, validate, stats, diff and usage")
struct InspectionCommandTests {
    let definition = CLI.fixture("responders.chain.json")
    let stream = CLI.fixture("responders.commands.jsonl")

    // MARK: which

    @Test func whichNamesTheHandlerAndPathWithoutRunningAnything() throws {
        let output = try CLI.run("which", definition, #"{"kind":"Tap","entry":"Cell","action":"share"}"#)
        #expect(output.status == 0)
        #expect(
            output.standardOutput.hasSuffix(
                "DetailScreen would take it, by Cell → List → Analytics → Screens → DetailScreen.\n"
            )
        )
        #expect(output.standardOutput.contains("3. Analytics: would observe it and let it continue"))
        #expect(output.standardOutput.contains("5. DetailScreen (in Screens): would accept"))
        let json = try CLI.json(
            try CLI.run("which", definition, #"{"kind":"Bold"}"#, "--entry", "Toolbar", "--format", "json")
        )
        #expect(json["handler"] as? String == "Toolbar")
        #expect(json["path"] as? [String] == ["Toolbar"])
    }

    @Test func whichExitsOneWhenNoHandlerWouldTakeIt() throws {
        let output = try CLI.run("which", definition, #"{"kind":"Tap","action":"nothing"}"#)
        #expect(output.status == 1)
        #expect(output.standardOutput.contains("No handler would take it: it would fall off the end after Cell → List"))
    }

    @Test func whichReportsBadCommandJSONAndUnknownEntries() throws {
        let bad = try CLI.run("which", definition, #"{"kind":"Tap", "action":}"#)
        #expect(bad.status == 2)
        #expect(bad.standardError == "chaintrace: <command>:1:25: expected a JSON value, found '}'\n")
        let entry = try CLI.run("which", definition, #"{"kind":"Tap"}"#, "--entry", "Nope")
        #expect(entry.status == 2)
        #expect(
            entry.standardError.contains(#"expected an entry naming a handler of editor, found "Nope" (its handlers: "#)
        )
        #expect(entry.standardError.contains(#""Cell""#), "\(entry.standardError)")
        // A near miss is named.
        let near = try CLI.run("which", definition, #"{"kind":"Tap"}"#, "--entry", "Cel")
        #expect(
            near.status == 2 && near.standardError.contains(#"found "Cel" (did you mean "Cell"?)"#),
            "\(near.standardError)"
        )
    }

    /// Two mistakes a user makes with `which`: a stream file given as the command (without `@`), and a registry's
    /// member given as the entry. Each error says what to write instead.
    @Test func whichSaysWhatToWriteForAFileOrARegistryMember() throws {
        let file = try CLI.run("which", definition, stream)
        #expect(file.status == 2)
        #expect(
            file.standardError.contains(
                "expected a command as JSON, found \"\(stream)\", a file; write @\(stream) to read the command from it"
            ),
            "\(file.standardError)"
        )
        let member = try CLI.run("which", definition, #"{"kind":"Tap","action":"share"}"#, "--entry", "DetailScreen")
        #expect(member.status == 2)
        #expect(
            member.standardError.contains(#"found "DetailScreen", a member of registry "Screens" (name "Screens""#),
            "\(member.standardError)"
        )
        // Text that is neither JSON nor a file is reported as the JSON error it is.
        let neither = try CLI.run("which", definition, "no-such-file.jsonl")
        #expect(
            neither.status == 2 && neither.standardError.contains("<command>:1:1: expected"),
            "\(neither.standardError)"
        )
    }

    // MARK: validate

    @Test func validateAcceptsAGoodDefinition() throws {
        let output = try CLI.run("validate", definition)
        #expect(output.status == 0)
        #expect(output.standardOutput == "\(definition): no problems found\n")
    }

    @Test func validateNamesUnknownAndDuplicateNamesWithPositionsAndSuggestions() throws {
        let file = CLI.fixture("unknown-names.chain.json")
        let output = try CLI.run("validate", file)
        #expect(output.status == 1)
        #expect(
            output.standardOutput.contains(
                #"\#(file):7:15: error: expected a name not used before, found "Start", already the name of the handler on line 5 [duplicate-name]"#
            )
        )
        #expect(
            output.standardOutput.contains(
                #"\#(file):5:32: error: expected "next" to name a handler of the chain, found "Middel" (did you mean "Middle"?) [unknown-handler]"#
            )
        )
        #expect(
            output.standardOutput.contains(
                #"\#(file):3:24: error: expected an entry naming a handler of the chain, found "Strat""#
            )
        )
        #expect(output.standardOutput.hasSuffix("3 errors, 0 warnings\n"))
    }

    @Test func validateFindsCyclesInvalidRulesUnreachableAndShadowedHandlers() throws {
        let file = CLI.fixture("lint-problems.chain.json")
        let output = try CLI.run("validate", file, "--format", "json")
        #expect(output.status == 1)
        let report = try CLI.json(output)
        let findings = try #require(report["findings"] as? [[String: Any]])
        func find(_ check: String, _ handler: String? = nil) -> [String: Any]? {
            findings.first {
                $0["check"] as? String == check && (handler == nil || $0["handler"] as? String == handler)
            }
        }
        #expect(find("cycle")?["found"] as? String == "the cycle LoopA → LoopB → LoopA")
        #expect(find("invalid-rule")?["line"] as? Int == 6)
        #expect(findings.contains { ($0["found"] as? String)?.contains("(did you mean \"next\"?)") == true })
        #expect(
            findings.contains { $0["check"] as? String == "invalid-rule" && $0["line"] as? Int == 7 },
            "max below min"
        )
        #expect(find("unreachable", "LoopA") != nil)
        let shadowed = try #require(find("shadowed", "Medium"))
        #expect((shadowed["found"] as? String)?.contains("\"Entry\" before it always accepts") == true)
        #expect(shadowed["line"] as? Int == 5)
        #expect(find("never-accepts", "Silent") != nil)
        #expect(find("never-accepts", "Pattern") == nil, "a handler whose rule is invalid is not also called ruleless")
        #expect(report["errors"] as? Int == 4)
    }

    @Test func validateExitsZeroOnWarningsUnlessStrict() throws {
        let file = CLI.fixture("warnings-only.chain.json")
        let output = try CLI.run("validate", file)
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("[unreachable]"))
        #expect(
            output.standardOutput.contains(
                "warnings-only.chain.json:7:35: warning: expected a rule some command can match, found a rule no command matches [never-accepts]"
            )
        )
        #expect(try CLI.run("validate", file, "--strict").status == 1)
    }

    @Test func validateReportsJSONSyntaxErrorsAsFindings() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("broken.json")
        try Data("{\n  \"chain\": \"x\",\n  \"handlers\": [,]\n}\n".utf8).write(to: file)
        let output = try CLI.run("validate", file.path)
        #expect(output.status == 1)
        #expect(
            output.standardOutput.contains("broken.json:3:16: error: expected a JSON value, found ',' [invalid-json]")
        )
    }

    // MARK: stats

    @Test func statsProfilesARecordedLog() throws {
        let log = try CLI.recordedLog(definition, stream, named: "run.jsonl")
        let output = try CLI.run("stats", log)
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("10 traces of editor in \(log)"))
        let row = output.standardOutput.split(separator: "\n").first { $0.hasPrefix("  Cell ") }
        let cells = row?.split(separator: " ").map(String.init) ?? []
        #expect(Array(cells.prefix(7)) == ["Cell", "8", "1", "7", "0", "0", cells.count > 6 ? cells[6] : "?"])
        let json = try CLI.json(try CLI.run("stats", log, "--format", "json", "--definition", definition))
        #expect(json["chains"] as? [String] == ["editor"])
        let handlers = try #require(json["handlers"] as? [[String: Any]])
        #expect(handlers.first { $0["handler"] as? String == "Window" }?["budgetNs"] as? Int == 1_000_000)
    }

    /// A definition none of whose budgeted handlers the log went through — another chain's — is warned about on
    /// standard error (the profile checks no budget then); the log's own definition is not.
    @Test func statsWarnsWhenNoBudgetOfTheDefinitionApplies() throws {
        let log = try CLI.recordedLog(definition, stream, named: "run.jsonl")
        let other = try CLI.temporaryDirectory().appendingPathComponent("other.chain.json")
        try Data(#"{"chain":"other","handlers":[{"name":"Gone","budget":"1us","accepts":true}]}"#.utf8).write(to: other)
        for format in ["text", "json"] {
            let wrong = try CLI.run("stats", log, "--definition", other.path, "--format", format)
            #expect(wrong.status == 0)
            #expect(
                wrong.standardError.contains(
                    "warning: the one handler with a budget in \(other.path) (chain 'other') is not in the log (chain 'editor')"
                ),
                "\(wrong.standardError)"
            )
        }
        let right = try CLI.run("stats", log, "--definition", definition)
        #expect(right.status == 0 && right.standardError.isEmpty, "\(right.standardError)")
    }

    @Test func statsReportsATornLastLineAndRejectsABadOne() throws {
        let directory = try CLI.temporaryDirectory()
        let log = directory.appendingPathComponent("run.jsonl")
        _ = try CLI.run("replay", definition, stream, "--trace-out", log.path)
        var bytes = try Data(contentsOf: log)
        let wholeLines = bytes.filter { $0 == 0x0A }.count
        bytes.append(contentsOf: Array(#"[5,1200,900,0,0,1,"#.utf8))
        try bytes.write(to: log)
        let torn = try CLI.run("stats", log.path)
        #expect(torn.status == 0)
        #expect(
            torn.standardOutput.contains("Ignored a torn last line: line \(wholeLines + 1)"),
            "\(torn.standardOutput)"
        )
        let broken = directory.appendingPathComponent("broken.jsonl")
        try Data("{\"format\":\"chaintrace-trace-log\",\"version\":1}\n{\"chain\" 1}\n".utf8).write(to: broken)
        let output = try CLI.run("stats", broken.path)
        #expect(output.status == 2)
        #expect(
            output.standardError == "chaintrace: \(broken.path):2:10: expected ':' after the member name, found '1'\n"
        )
    }

    // MARK: diff

    @Test func diffOfARunWithItselfFindsNothing() throws {
        let log = try CLI.recordedLog(definition, stream, named: "a.jsonl")
        let output = try CLI.run("diff", log, log)
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("No divergences: all 10 commands took the same path."))
        #expect(output.standardOutput.contains("Self time per handler"))
    }

    @Test func diffListsDivergencesAndLatencyPerHandler() throws {
        let before = try CLI.recordedLog(definition, stream, named: "before.jsonl")
        let after = try CLI.recordedLog(CLI.fixture("responders-changed.chain.json"), stream, named: "after.jsonl")
        let output = try CLI.run("diff", before, after, "--format", "json")
        #expect(output.status == 1)
        let report = try CLI.json(output)
        #expect(report["counts"] as? [String: Int] == ["newlyUnhandled": 1, "differentHandler": 1, "newlyFailing": 1])
        let latency = try #require(report["latency"] as? [[String: Any]])
        let window = try #require(latency.first { $0["handler"] as? String == "Window" })
        #expect(window["seenBefore"] as? Int == 4)
        #expect(window["seenAfter"] as? Int == 4)
        #expect(latency.contains { $0["handler"] as? String == "DanceFloor" })
    }

    // MARK: usage and bad input

    @Test func missingFilesAndBadUsageExitTwoWithAMessage() throws {
        let missing = try CLI.run("stats", "/nonexistent/traces.jsonl")
        #expect(missing.status == 2)
        #expect(
            missing.standardError
                == "chaintrace: /nonexistent/traces.jsonl: expected a readable file, found No such file or directory\n"
        )
        let noArgument = try CLI.run("replay")
        #expect(noArgument.status == 2)
        #expect(noArgument.standardError.contains("Missing expected argument '<definition>'"))
        let badFormat = try CLI.run("stats", "x", "--format", "xml")
        #expect(badFormat.status == 2)
        let badRule = try CLI.run("stats", "x", "--slow", "p95>fast")
        #expect(badRule.status == 2)
        #expect(badRule.standardError.contains(#"found "fast" in "p95>fast""#))
        let badDefinition = try CLI.run("replay", CLI.fixture("unknown-names.chain.json"), stream)
        #expect(badDefinition.status == 2)
        #expect(badDefinition.standardError.contains("unknown-names.chain.json:7:15: expected a name not used before"))
    }

    @Test func helpExplainsExitStatusAndEverySubcommand() throws {
        let output = try CLI.run("--help")
        #expect(output.status == 0)
        for name in ["replay", "which", "validate", "stats", "diff"] { #expect(output.standardOutput.contains(name)) }
        #expect(output.standardOutput.contains("2 for bad usage, bad input"))
        #expect(output.standardOutput.contains("output that could not be"))
        let replay = try CLI.run("replay", "--help")
        #expect(replay.standardOutput.contains("--skip-invalid"))
        #expect(replay.standardOutput.contains("p95>1ms"))
    }
}
