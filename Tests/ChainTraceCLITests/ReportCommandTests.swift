import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `chaintrace report`, run as a user runs it: the page's numbers are `stats`'s numbers for the same log (the
/// same words for slow handlers), its list holds what it says, its Content-Security-Policy hashes are those of
/// its own script and style, compare mode lists what `diff` lists, and bad input leaves no file behind.
@Suite("chaintrace report")
struct ReportCommandTests {
    /// The JSON data block of a report page.
    static func data(ofPage path: String) throws -> [String: Any] {
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let opening = #"<script type="application/json" id="chaintrace-data">"#
        guard let start = page.range(of: opening),
            let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex)
        else { throw CocoaError(.fileReadCorruptFile) }
        let object = try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8))
        return object as? [String: Any] ?? [:]
    }

    /// The contents of every `<tag>` element of the page.
    static func elements(_ tag: String, in page: String) -> [String] {
        page.components(separatedBy: "<\(tag)>").dropFirst().compactMap {
            $0.components(separatedBy: "</\(tag)>").first
        }
    }

    static func sha256Base64(_ text: String) throws -> String {
        let file = TestFiles.directory.appendingPathComponent("csp-\(UUID()).txt")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import base64,hashlib,sys; print(base64.b64encode(hashlib.sha256(open(sys.argv[1],'rb').read()).digest()).decode())",
            file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func pageNumbersAreStatsNumbers(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...300, using: &random))
        let log = try CLI.write(LogCommandsAgreeWithLibraryTests.bytes(traces), named: "log.jsonl", in: directory)
        let page = directory.appendingPathComponent("report.html").path
        let limit = random.pick([0, 3, 50, 10_000])
        let rule = random.pick(["p95>500ns", "5x-median", "share>40%", "p50>1us,2x-median"])
        let run = try CLI.run("report", log, "-o", page, "--commands", String(limit), "--slow", rule, "--threads", "2")
        #expect(run.status == 0, "seed \(seed): \(run.standardError)")
        let data = try Self.data(ofPage: page)
        let stats = try CLI.json(try CLI.run("stats", log, "--format", "json", "--slow", rule))
        #expect(data["commands"] as? Int == stats["commands"] as? Int, "seed \(seed)")
        let outcomes = stats["outcomes"] as? [String: Int] ?? [:]
        #expect(
            data["accepted"] as? Int == outcomes["accepted"] && data["failed"] as? Int == outcomes["failed"]
                && data["fellOffTheEnd"] as? Int == outcomes["fellOffTheEnd"],
            "seed \(seed)"
        )
        #expect(data["rule"] as? String == stats["slowRule"] as? String, "seed \(seed)")
        let names = data["names"] as? [String] ?? []
        let handlers = data["handlers"] as? [[String: Any]] ?? []
        let statsHandlers = stats["handlers"] as? [[String: Any]] ?? []
        #expect(handlers.count == statsHandlers.count, "seed \(seed)")
        for (mine, theirs) in zip(handlers, statsHandlers) {
            #expect(names[mine["h"] as? Int ?? -1] == theirs["handler"] as? String, "seed \(seed)")
            for key in ["seen", "accepted", "passed", "continued", "failed"] {
                #expect(mine[key] as? Int == theirs[key] as? Int, "seed \(seed): \(key)")
            }
            let selfTimes = mine["self"] as? [Int] ?? []
            #expect(
                selfTimes.prefix(3).elementsEqual(
                    [theirs["selfP50Ns"], theirs["selfP95Ns"], theirs["selfP99Ns"]].map { $0 as? Int ?? -1 }
                ),
                "seed \(seed)"
            )
            #expect(mine["slow"] as? Bool == theirs["slow"] as? Bool, "seed \(seed)")
            #expect((mine["reasons"] as? [String]) == (theirs["slowBecause"] as? [String]), "seed \(seed)")
            let bars = mine["bars"] as? [[Int]] ?? []
            #expect(bars.reduce(0) { $0 + $1[2] } == mine["seen"] as? Int, "seed \(seed): the bars hold every hop")
        }
        // The list: as many as the limit allows, failures first (up to half), numbered as in the log.
        let listed = data["traces"] as? [[String: Any]] ?? []
        #expect(listed.count == min(limit, traces.count), "seed \(seed)")
        let failures = traces.filter { $0.outcome.failingHandler != nil }.count
        #expect(
            listed.filter { $0["o"] as? String == "failed" }.count >= min(failures, limit == 0 ? 0 : max(1, limit / 2)),
            "seed \(seed)"
        )
        for entry in listed {
            let number = entry["n"] as? Int ?? 0
            let trace = traces[number - 1]
            #expect(entry["id"] as? String == trace.commandID, "seed \(seed)")
            let hops = (entry["hops"] as? [[Any]] ?? []).map { names[$0[0] as? Int ?? 0] }
            #expect(hops == trace.path, "seed \(seed): #\(number)")
        }
        let sample = data["sample"] as? [String: Int] ?? [:]
        #expect(sample["shown"] == listed.count && sample["total"] == traces.count, "seed \(seed)")
    }

    @Test func policyAllowsExactlyThePagesOwnScriptAndStyle() throws {
        let log = try CLI.recordedLog(
            "Samples/VendingMachine/vending-machine.chain.json",
            "Samples/VendingMachine/coins.jsonl"
        )
        let page = try CLI.temporaryDirectory().appendingPathComponent("r.html").path
        #expect(try CLI.run("report", log, "-o", page).status == 0)
        let text = try String(contentsOfFile: page, encoding: .utf8)
        let policy =
            text.components(separatedBy: #"http-equiv="Content-Security-Policy" content=""#).dropFirst().first?
            .components(separatedBy: "\"").first ?? ""
        #expect(policy.hasPrefix("default-src 'none'"))
        #expect(!policy.contains("unsafe") && !policy.contains("http"))
        let scripts = Self.elements("script", in: text)
        let styles = Self.elements("style", in: text)
        #expect(scripts.count == 1 && styles.count == 1)
        #expect(policy.contains("script-src 'sha256-\(try Self.sha256Base64(scripts[0]))'"))
        #expect(policy.contains("style-src 'sha256-\(try Self.sha256Base64(styles[0]))'"))
        #expect(!text.contains("src=\"http") && !text.contains("href=\"http"), "the page must not load anything")
    }

    @Test func compareListsWhatDiffLists() throws {
        var random = SeededGenerator(seed: 11)
        let directory = try CLI.temporaryDirectory()
        let before = LogCommandsAgreeWithLibraryTests.log(&random, ids: 200)
        let after = LogCommandsAgreeWithLibraryTests.log(&random, ids: 200)
        let first = try CLI.write(LogCommandsAgreeWithLibraryTests.bytes(before), named: "a.jsonl", in: directory)
        let second = try CLI.write(LogCommandsAgreeWithLibraryTests.bytes(after), named: "b.jsonl", in: directory)
        let page = directory.appendingPathComponent("compare.html").path
        let run = try CLI.run("report", first, "--compare", second, "-o", page)
        #expect(run.status == 0, "\(run.standardError)")
        let compare = try Self.data(ofPage: page)["compare"] as? [String: Any] ?? [:]
        let diff = try CLI.json(try CLI.run("diff", first, second, "--format", "json", "--divergences", "100000"))
        #expect(compare["total"] as? Int == diff["total"] as? Int)
        let listed = (compare["divergences"] as? [[String: Any]] ?? []).map {
            "\($0["kind"] ?? "") \($0["command"] ?? "")"
        }
        let expected = (diff["divergences"] as? [[String: Any]] ?? []).map {
            "\($0["kind"] ?? "") \($0["command"] ?? "")"
        }
        #expect(listed == expected && !listed.isEmpty)
    }

    @Test func badInputLeavesNoFile() throws {
        let directory = try CLI.temporaryDirectory()
        let page = directory.appendingPathComponent("never.html").path
        let malformed = try CLI.write(
            Array((String(decoding: TraceLogFormat.header, as: UTF8.self) + "\n{\"not\": a trace}\n").utf8),
            named: "bad.jsonl",
            in: directory
        )
        let good = try CLI.recordedLog(
            "Samples/VendingMachine/vending-machine.chain.json",
            "Samples/VendingMachine/coins.jsonl"
        )
        let runs: [[String]] = [
            ["report", directory.appendingPathComponent("missing.jsonl").path, "-o", page],
            ["report", malformed, "-o", page],
            ["report", good, "-o", page, "--slow", "p95>fast"],
            ["report", good, "-o", page, "--commands", "-1"],
            ["report", good, "-o", page, "--definition", malformed],
            ["report", good, "--compare", malformed, "-o", page],
            ["report", good],
        ]
        for arguments in runs {
            let run = try CLI.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.status) \(run.standardError)")
            #expect(!run.standardError.isEmpty && !run.standardError.contains("Fatal"), "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: page), "\(arguments) wrote a page")
        }
        let malformedRun = try CLI.run("report", malformed, "-o", page)
        #expect(
            malformedRun.standardError.contains("bad.jsonl:2:"),
            "names the file and line: \(malformedRun.standardError)"
        )
    }
}
