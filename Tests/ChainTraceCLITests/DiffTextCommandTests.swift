import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// `diff` on generated pairs of runs, as a user reads it on a terminal: every divergence the JSON lists is in the
/// text, with its command and kind in words, the counts agree, and a pair of identical runs says so and exits 0.
@Suite("diff text agrees with diff JSON")
struct DiffTextCommandTests {
    @Test(arguments: SeededGenerator.seeds(5))
    func everyDivergenceIsInTheText(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let before = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...30, using: &random))
        let rerun = LogCommandsAgreeWithLibraryTests.log(&random, ids: before.count)
        // Some commands of the first run missing from the second.
        let after = zip(before, rerun).map { original, other in random.chance(0.3) ? other : original }
            .filter { _ in !random.chance(0.15) }
        let directory = try CLI.temporaryDirectory()
        let first = try CLI.write(LogCommandsAgreeWithLibraryTests.bytes(before), named: "before.jsonl", in: directory)
        let second = try CLI.write(LogCommandsAgreeWithLibraryTests.bytes(after), named: "after.jsonl", in: directory)

        let json = try CLI.run("diff", first, second, "--format", "json")
        let text = try CLI.run("diff", first, second)
        #expect(json.status == text.status, "seed \(seed)")
        let comparison = try JSONDocument(bytes: Array(json.standardOutput.utf8), file: "diff.json").root
        guard case .array(let divergences)? = comparison["divergences"] else {
            Issue.record("seed \(seed): \(json.standardOutput.prefix(200))")
            return
        }
        for divergence in divergences {
            guard let command = divergence["command"]?.stringValue else { continue }
            #expect(text.standardOutput.contains(command), "seed \(seed): \(command) not in the text")
        }
        if divergences.isEmpty {
            #expect(text.status == 0, "seed \(seed)")
        } else {
            #expect(text.status == 1 && text.standardOutput.contains("\(divergences.count)"), "seed \(seed)")
            // The commands compared are those in both runs; the others are counted apart.
            let compared = comparison["compared"]?.doubleValue.map { Int($0) } ?? -1
            let counts = comparison["counts"]
            let unpaired =
                (counts?["missing"]?.doubleValue.map { Int($0) } ?? 0)
                + (counts?["unexpected"]?.doubleValue.map { Int($0) } ?? 0)
            #expect(compared + (counts?["missing"]?.doubleValue.map { Int($0) } ?? 0) == before.count, "seed \(seed)")
            let commands = "\(compared) command\(compared == 1 ? "" : "s") compared"
            let scope =
                unpaired == 0
                ? "\(divergences.count) divergence\(divergences.count == 1 ? "" : "s") in \(commands): "
                : "\(divergences.count) divergences — \(divergences.count - unpaired) in \(commands), \(unpaired) in one run only: "
            #expect(text.standardOutput.contains(scope), "seed \(seed): \(text.standardOutput.prefix(300))")
        }

        // Only the commands both runs hold: those in one run only are counted apart, and no divergence.
        let common = try CLI.run("diff", first, second, "--only-common", "--format", "json")
        let commonText = try CLI.run("diff", first, second, "--only-common")
        let onlyCommon = try JSONDocument(bytes: Array(common.standardOutput.utf8), file: "diff.json").root
        let missing = comparison["inOneRunOnly"]?["missing"]?.doubleValue.map { Int($0) } ?? -1
        let unexpected = comparison["inOneRunOnly"]?["unexpected"]?.doubleValue.map { Int($0) } ?? -1
        let comparedDivergences = divergences.count - missing - unexpected
        #expect(onlyCommon["total"]?.doubleValue.map { Int($0) } == comparedDivergences, "seed \(seed)")
        #expect(onlyCommon["inOneRunOnly"] == comparison["inOneRunOnly"], "seed \(seed)")
        if case .array(let listed)? = onlyCommon["divergences"] {
            #expect(
                listed.allSatisfy { !["missing", "unexpected"].contains($0["kind"]?.stringValue ?? "") },
                "seed \(seed)"
            )
            #expect(listed.count == comparedDivergences, "seed \(seed)")
        }
        #expect(
            common.status == (comparedDivergences > 0 ? 1 : 0) && commonText.status == common.status,
            "seed \(seed)"
        )
        if missing + unexpected > 0 {
            #expect(
                commonText.standardOutput.contains(
                    "Not compared (--only-common): \(missing) command\(missing == 1 ? "" : "s") in the baseline only, \(unexpected) in the other only."
                ),
                "seed \(seed): \(commonText.standardOutput.prefix(400))"
            )
        }

        let same = try CLI.run("diff", first, first)
        #expect(same.status == 0, "seed \(seed): \(same.standardOutput)")
    }
}
