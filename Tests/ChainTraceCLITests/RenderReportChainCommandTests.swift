import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// `render --chain NAME` and `report --chain NAME` on a log holding several chains whose handlers share names: what
/// they draw and list is exactly what they draw and list for a log of that chain's traces alone — the profile, one
/// command's path (numbered among the chain's commands), and the change between two runs.
@Suite("render and report --chain")
struct RenderReportChainCommandTests {
    @Test(arguments: SeededGenerator.seeds(4))
    func oneChainIsDrawnAsItsTracesAlone(seed: UInt64) throws {
        let log = try MultiChainLog(seed: seed)
        let chain = ["--chain", log.chosen]
        func dot(_ arguments: [String]) throws -> String {
            let run = try CLI.run(["render", "--format", "dot"] + arguments)
            #expect(run.status == 0, "seed \(seed): \(arguments): \(run.standardError)")
            return run.standardOutput
        }
        #expect(try dot(["--trace", log.all] + chain) == dot(["--trace", log.alone]), "seed \(seed)")
        let count = log.chosenTraces.count
        let number = String(count / 2 + 1)
        #expect(
            try dot(["--trace", log.all, "--command", number] + chain)
                == dot(["--trace", log.alone, "--command", number]),
            "seed \(seed)"
        )
        #expect(
            try dot(["--trace", log.all, "--diff", log.all] + chain)
                == dot(["--trace", log.alone, "--diff", log.alone]),
            "seed \(seed)"
        )

        let directory = try CLI.temporaryDirectory()
        let filtered = directory.appendingPathComponent("filtered.html").path
        let alone = directory.appendingPathComponent("alone.html").path
        let first = try CLI.run(["report", log.all, "-o", filtered] + chain)
        let second = try CLI.run("report", log.alone, "-o", alone)
        #expect(first.status == 0 && second.status == 0, "seed \(seed): \(first.standardError)")
        #expect(first.standardError.contains("\(count) command"), "seed \(seed): \(first.standardError)")
        // The same page but for the log's name.
        let page = try String(contentsOfFile: filtered, encoding: .utf8).replacingOccurrences(of: log.all, with: "LOG")
        let expected = try String(contentsOfFile: alone, encoding: .utf8).replacingOccurrences(
            of: log.alone,
            with: "LOG"
        )
        #expect(page == expected, "seed \(seed)")

        let none = try CLI.run("render", "--trace", log.all, "--chain", "nowhere", "--format", "dot")
        #expect(none.standardError.contains("no trace of nowhere is in the log"), "seed \(seed): \(none.standardError)")
        let noLog = try CLI.run("render", "Samples/VendingMachine/vending-machine.chain.json", "--chain", log.chosen)
        #expect(noLog.status == 2 && noLog.standardError.contains("--chain need --trace"), "\(noLog.standardError)")
    }
}
