import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Every reading command, run as a user runs it, prints the same for a log cut into several files — listed one by
/// one, as their directory, as a quoted pattern the binary expands, some files compressed with gzip, the two
/// versions mixed — as for the whole log in one file: `stats`, `diff` (`--against`), `render --trace` (repeated,
/// with `--diff` and `--command`), `export`, `replay` of a recorded log and `gen-tests`.
@Suite("Several files read as one log, by every command")
struct SeveralFilesAsOneLogCommandTests {
    /// `traces` cut at random trace boundaries into 2–5 files named `part-N.jsonl` in `directory`, each of a random
    /// version, some gzipped; their paths in order.
    static func split(_ traces: [Trace], into directory: URL, _ random: inout SeededGenerator) throws -> [String] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let count = Int.random(in: 2...min(5, max(2, traces.count)), using: &random)
        var cuts = Set<Int>()
        while cuts.count < count - 1, traces.count > 1 { cuts.insert(Int.random(in: 1..<traces.count, using: &random)) }
        let bounds = [0] + cuts.sorted() + [traces.count]
        var paths: [String] = []
        for (index, (start, end)) in zip(bounds, bounds.dropFirst()).enumerated() {
            let bytes = LogCommandsAgreeWithLibraryTests.bytes(Array(traces[start..<end]), compact: random.chance(0.5))
            let name = "part-\(index).jsonl"
            paths.append(
                random.chance(0.4)
                    ? try GzipLogTests.gzip(bytes, in: directory, named: name)
                    : try CLI.write(bytes, named: name, in: directory)
            )
        }
        return paths
    }

    /// The three ways to name `paths` as one log.
    static func spellings(of paths: [String], in directory: URL) -> [(name: String, arguments: [String])] {
        [("files", paths), ("directory", [directory.path]), ("pattern", [directory.path + "/part-*.jsonl*"])]
    }

    /// `output` with the file names that differ between spellings taken out.
    static func withoutNames(_ output: String, _ names: [String]) -> String {
        var output = output
        for name in names.sorted(by: { $0.count > $1.count }) {
            output = output.replacingOccurrences(of: name, with: "LOG")
        }
        return output
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func statsDiffRenderAndExportReadTheFilesAsTheWholeLog(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let (before, after) = LogCommandsAgreeWithLibraryTests.runs(
            &random,
            ids: Int.random(in: 2...120, using: &random)
        )
        let wholeBefore = try CLI.write(
            LogCommandsAgreeWithLibraryTests.bytes(before),
            named: "before.jsonl",
            in: directory
        )
        let wholeAfter = try CLI.write(
            LogCommandsAgreeWithLibraryTests.bytes(after),
            named: "after.jsonl",
            in: directory
        )
        let beforeDirectory = directory.appendingPathComponent("before")
        let afterDirectory = directory.appendingPathComponent("after")
        let beforeParts = try Self.split(before, into: beforeDirectory, &random)
        let afterParts = try Self.split(after, into: afterDirectory, &random)

        let stats = try CLI.json(try CLI.run("stats", wholeBefore, "--format", "json"))
        let diff = try CLI.run("diff", wholeBefore, wholeAfter, "--format", "json")
        let profile = try CLI.run("render", "--trace", wholeBefore, "--format", "dot")
        let changes = try CLI.run("render", "--trace", wholeBefore, "--diff", wholeAfter, "--format", "dot")
        let command = "\(Int.random(in: 1...before.count, using: &random))"
        let path = try CLI.run("render", "--trace", wholeBefore, "--command", command, "--format", "dot")
        let rows = try CLI.run("export", wholeBefore, "--to", "jsonl")
        let folded = try CLI.run("export", wholeBefore, "--to", "folded")
        #expect(
            profile.status == 0 && changes.status == 0 && path.status == 0,
            "seed \(seed): \(profile.standardError)"
        )

        for (spelling, arguments) in Self.spellings(of: beforeParts, in: beforeDirectory) {
            let label = "seed \(seed), \(spelling)"
            var split = try CLI.json(try CLI.run(["stats"] + arguments + ["--format", "json"]))
            #expect(split["files"] as? Int == beforeParts.count, "\(label)")
            split["files"] = stats["files"]
            #expect(NSDictionary(dictionary: split).isEqual(to: stats), "\(label)")
            let traced = arguments.flatMap { ["--trace", $0] }
            let drawn = directory.appendingPathComponent("profile-\(spelling).dot").path
            let written = try CLI.run(["render"] + traced + ["-o", drawn])
            #expect(
                written.standardError == "Wrote \(drawn): \(before.count) traces from \(beforeParts.count) files.\n",
                "\(label)"
            )
            #expect(try String(contentsOfFile: drawn, encoding: .utf8) == profile.standardOutput, "\(label)")
            #expect(
                try CLI.run(["render"] + traced + ["--format", "dot"]).standardOutput == profile.standardOutput,
                "\(label)"
            )
            #expect(
                try CLI.run(["render"] + traced + ["--command", command, "--format", "dot"]).standardOutput
                    == path.standardOutput,
                "\(label)"
            )
            #expect(
                try CLI.run(["export"] + arguments + ["--to", "folded"]).standardOutput == folded.standardOutput,
                "\(label)"
            )
            // The rows name their file and their number in it; everything else is the whole log's.
            let splitRows = try CLI.run(["export"] + arguments + ["--to", "jsonl"]).standardOutput
            #expect(Self.hopColumns(splitRows) == Self.hopColumns(rows.standardOutput), "\(label)")
            for (otherSpelling, otherArguments) in Self.spellings(of: afterParts, in: afterDirectory) {
                let againstLabel = "\(label) against \(otherSpelling)"
                let splitDiff = try CLI.run(
                    ["diff"] + arguments + ["--against"] + otherArguments + ["--format", "json"]
                )
                #expect(splitDiff.status == diff.status, "\(againstLabel): \(splitDiff.standardError)")
                let counts = try CLI.json(splitDiff)
                #expect((counts["before"] as? [String: Any])?["files"] as? Int == beforeParts.count, "\(againstLabel)")
                #expect((counts["after"] as? [String: Any])?["files"] as? Int == afterParts.count, "\(againstLabel)")
                #expect((counts["after"] as? [String: Any])?["traces"] as? Int == after.count, "\(againstLabel)")
                // The same divergences, each naming the file and line it was read from: a line of that file that
                // holds the command.
                let (splitDivergences, places) = try Self.withoutPlaces(splitDiff)
                #expect(splitDivergences == (try Self.withoutPlaces(diff)).json, "\(againstLabel)")
                for place in places {
                    #expect(
                        try Self.line(place.line, of: place.file).contains("\"\(place.command)\""),
                        "\(againstLabel): \(place)"
                    )
                }
                let drawn = try CLI.run(
                    ["render"] + traced + otherArguments.flatMap { ["--diff", $0] } + ["--format", "dot"]
                )
                #expect(drawn.standardOutput == changes.standardOutput, "\(againstLabel)")
            }
        }
        // Two logs of one file each still need no --against.
        let single = try CLI.run(["diff", beforeDirectory.path, afterDirectory.path, "--format", "json"])
        #expect(try Self.withoutPlaces(single).json == (try Self.withoutPlaces(diff)).json, "seed \(seed)")
    }

    /// `diff --format json`'s output without the line and file of each run, and those places with their command.
    static func withoutPlaces(_ output: BuiltProduct.Output) throws -> (
        json: NSDictionary, places: [(file: String, line: Int, command: String)]
    ) {
        try withoutPlaces(try CLI.json(output))
    }

    /// A comparison's JSON without the line and file of each run, and those places with their command.
    static func withoutPlaces(_ json: [String: Any]) throws -> (
        json: NSDictionary, places: [(file: String, line: Int, command: String)]
    ) {
        var json = json
        // How many files each side was read from is the one count that differs.
        for side in ["before", "after"] {
            if var counts = json[side] as? [String: Any] {
                counts["files"] = nil
                json[side] = counts
            }
        }
        var places: [(file: String, line: Int, command: String)] = []
        json["divergences"] = (json["divergences"] as? [[String: Any]])?.map { divergence in
            var divergence = divergence
            for side in ["expected", "actual"] {
                guard var run = divergence[side] as? [String: Any] else { continue }
                if let file = run["file"] as? String, let line = run["line"] as? Int,
                    let command = divergence["command"] as? String
                {
                    places.append((file, line, command))
                }
                run["file"] = nil
                run["line"] = nil
                divergence[side] = run
            }
            return divergence
        }
        return (NSDictionary(dictionary: json), places)
    }

    /// Line `number` (from 1) of the log file at `path`, decompressed when it is gzip.
    static func line(_ number: Int, of path: String) throws -> String {
        let bytes =
            path.hasSuffix(".gz") ? try TestFiles.gunzip(path: path) : try Data(contentsOf: URL(fileURLWithPath: path))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        return number >= 1 && number <= lines.count ? String(lines[number - 1]) : ""
    }

    /// Each row of `export --to jsonl` without the members that say where it was read (file, trace number).
    static func hopColumns(_ rows: String) -> [NSDictionary] {
        rows.split(separator: "\n").map { line in
            var members =
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [
                    "unreadable": String(line)
                ]
            members["file"] = nil
            members["trace"] = nil
            return NSDictionary(dictionary: members)
        }
    }

    @Test(arguments: SeededGenerator.seeds(3))
    func aRecordedLogOfSeveralFilesReplaysAsOne(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let definition = CLI.fixture("responders.chain.json")
        let recorded = try CLI.recordedLog(definition, CLI.fixture("responders.commands.jsonl"))
        let traces = try TraceLogReader(path: recorded).readAll().traces
        let directory = try CLI.temporaryDirectory().appendingPathComponent("rotated")
        let parts = try Self.split(traces, into: directory, &random)
        // The stream changed the chain midway; a log replays without the changes, so two commands go elsewhere.
        let whole = try CLI.run(
            "replay",
            definition,
            recorded,
            "--expect",
            recorded,
            "--format",
            "json",
            "--paths",
            "1000"
        )
        #expect(whole.status == 1, "seed \(seed): \(whole.standardError)")
        for (spelling, arguments) in Self.spellings(of: parts, in: directory) {
            let expected = arguments.flatMap { ["--expect", $0] }
            let split = try CLI.run(
                ["replay", definition] + arguments + expected + ["--format", "json", "--paths", "1000"]
            )
            #expect(
                split.status == whole.status,
                "seed \(seed), \(spelling): \(split.standardError) \(split.standardOutput.prefix(300))"
            )
            // Lines count from the start of each file, which is named; the paths, outcomes, profile and comparison
            // are the whole log's.
            // Lines count from the start of each file, which is named; the paths, outcomes, decisions and
            // divergences are the whole log's (times are measured anew by each replay).
            let splitJSON = try CLI.json(split)
            let wholeJSON = try CLI.json(whole)
            let splitPaths = splitJSON["paths"] as? [[String: Any]] ?? []
            #expect(splitPaths.count == traces.count, "seed \(seed), \(spelling)")
            for path in splitPaths {
                let file = path["file"] as? String ?? "no file"
                #expect(parts.contains(file), "seed \(seed), \(spelling): \(file)")
                if let id = path["id"] as? String, let line = path["line"] as? Int {
                    #expect(
                        try Self.line(line, of: file).contains("\"\(id)\""),
                        "seed \(seed), \(spelling): \(id) at \(file):\(line)"
                    )
                }
            }
            func unplaced(_ paths: Any?) -> NSArray {
                NSArray(
                    array: (paths as? [[String: Any]] ?? []).map { $0.filter { $0.key != "line" && $0.key != "file" } }
                )
            }
            #expect(unplaced(splitJSON["paths"]) == unplaced(wholeJSON["paths"]), "seed \(seed), \(spelling)")
            func decisions(_ json: [String: Any]) -> NSArray {
                let keys: Set = ["handler", "seen", "accepted", "passed", "continued", "failed"]
                return NSArray(
                    array: (json["handlers"] as? [[String: Any]] ?? []).map { $0.filter { keys.contains($0.key) } }
                )
            }
            #expect(decisions(splitJSON) == decisions(wholeJSON), "seed \(seed), \(spelling)")
            let (splitComparison, places) = try Self.withoutPlaces(splitJSON["comparison"] as? [String: Any] ?? [:])
            #expect(
                splitComparison == (try Self.withoutPlaces(wholeJSON["comparison"] as? [String: Any] ?? [:])).json,
                "seed \(seed), \(spelling)"
            )
            #expect(!places.isEmpty, "seed \(seed), \(spelling)")
            for place in places {
                #expect(
                    try Self.line(place.line, of: place.file).contains("\"\(place.command)\""),
                    "seed \(seed), \(spelling): \(place)"
                )
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(2))
    func testsGeneratedFromSeveralFilesAreTheWholeLogs(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let recorded = try CLI.recordedLog(
            CLI.fixture("responders.chain.json"),
            CLI.fixture("responders.commands.jsonl")
        )
        let traces = try TraceLogReader(path: recorded).readAll().traces
        let directory = try CLI.temporaryDirectory().appendingPathComponent("rotated")
        let parts = try Self.split(traces, into: directory, &random)
        // The same tests; only the comments (which file and line each came from) and the suite's name differ.
        func code(_ output: BuiltProduct.Output) -> [Substring] {
            output.standardOutput.split(separator: "\n").filter {
                !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") && !$0.hasPrefix("@Suite")
            }
        }
        let whole = try CLI.run("gen-tests", recorded)
        for (spelling, arguments) in Self.spellings(of: parts, in: directory) {
            let split = try CLI.run(["gen-tests"] + arguments)
            #expect(split.status == 0, "seed \(seed), \(spelling): \(split.standardError)")
            #expect(code(split) == code(whole), "seed \(seed), \(spelling)")
            let places = split.standardOutput.split(separator: "\n").filter { $0.contains("/// Line ") }
            #expect(places.count == traces.count, "seed \(seed), \(spelling)")
            #expect(
                places.allSatisfy { line in
                    parts.contains { line.contains(" of \(($0 as NSString).lastPathComponent):") }
                },
                "seed \(seed), \(spelling)"
            )
        }
    }

    @Test func aPatternThatMatchesNothingOrAMissingSideIsAnError() throws {
        let directory = try CLI.temporaryDirectory()
        let pattern = directory.path + "/nothing-*.jsonl"
        for arguments in [["stats", pattern], ["export", pattern, "--to", "folded"], ["render", "--trace", pattern]] {
            let output = try CLI.run(arguments)
            #expect(output.status == 2, "\(arguments)")
            #expect(
                output.standardError.contains("\(pattern): expected trace log files matching the pattern, found none"),
                "\(output.standardError)"
            )
        }
        let lonely = try CLI.run("diff", pattern)
        #expect(lonely.status == 2)
        #expect(
            lonely.standardError.contains(
                "give two trace logs, or the baseline's files and then the other's after --against"
            ),
            "\(lonely.standardError)"
        )
        let nothingBefore = try CLI.run("diff", "--against", pattern)
        #expect(nothingBefore.status == 2)
        #expect(
            nothingBefore.standardError.contains("give the baseline log's files before --against"),
            "\(nothingBefore.standardError)"
        )
    }

    @Test func severalCommandStreamsAreRefusedWithTheReason() throws {
        let stream = CLI.fixture("responders.commands.jsonl")
        let output = try CLI.run("replay", CLI.fixture("responders.chain.json"), stream, stream)
        #expect(output.status == 2)
        #expect(output.standardError.contains("\(stream):1:1: expected a trace log header"), "\(output.standardError)")
        #expect(output.standardError.contains("replay a command stream one file at a time"), "\(output.standardError)")
    }

    @Test func aFileNamedLikeAPatternIsReadAsItIs() throws {
        var random = SeededGenerator(seed: 11)
        let directory = try CLI.temporaryDirectory()
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: 7)
        let odd = try CLI.write(LogCommandsAgreeWithLibraryTests.bytes(traces), named: "run[1]*.jsonl", in: directory)
        let stats = try CLI.json(try CLI.run("stats", odd, "--format", "json"))
        #expect(stats["commands"] as? Int == 7)
    }
}
