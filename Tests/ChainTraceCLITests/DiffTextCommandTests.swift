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
        let after = zip(before, rerun).map { original, other in random.chance(0.3) ? other : original }
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
        }

        let same = try CLI.run("diff", first, first)
        #expect(same.status == 0, "seed \(seed): \(same.standardOutput)")
    }
}
