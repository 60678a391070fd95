import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

@Suite("The VendingMachine sample, run as a user runs it")
struct VendingMachineSampleTests {
    let sample = BuiltProduct(name: "VendingMachine")

    func temporaryFile(_ name: String) -> URL {
        TestFiles.directory.appendingPathComponent("vending-\(UUID())-\(name)")
    }

    @Test func printsEachCoinsPathAndWritesATraceLogOfEveryCoin() throws {
        let log = temporaryFile("traces.jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        let diagram = temporaryFile("profile.svg")
        defer { try? FileManager.default.removeItem(at: diagram) }
        let output = try sample.run(["--trace-out", log.path, "--diagram", diagram.path])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "c01: CoinCounter(continued) → PennyValidator(passed) → NickelValidator(passed) → DimeValidator(passed) → QuarterValidator(accepted) ⇒ accepted by QuarterValidator"
        )
        #expect(
            lines.contains(
                "c05: CoinCounter(continued) → PennyValidator(passed) → NickelValidator(passed) → DimeValidator(passed) → QuarterValidator(passed) ⇒ fell off the end"
            )
        )
        #expect(lines.contains("accepted 102 cents from 10 coins; trace log: \(log.path)"))
        // The profile diagram flags what the standard rule flags in the recorded traces: always the deliberately
        // slow validator (2 ms a coin), and on a loaded machine perhaps a handler a preemption made slow too —
        // so the expectation is the rule applied to the log, not a fixed list.
        let traces = try TraceLogReader.readAll(path: log.path).traces
        let flagged = SlowHandlerRule.standard.flags(in: ChainProfile(traces)).map(\.handler)
        #expect(flagged.contains("QuarterValidator"))
        #expect(lines.contains("diagram: \(diagram.path) (slow: \(flagged.joined(separator: ", ")))"))
        // The report beside the diagram: the page `chaintrace report` writes, of these ten coins.
        let report = diagram.deletingPathExtension().path + ".report.html"
        defer { try? FileManager.default.removeItem(atPath: report) }
        #expect(lines.contains("report: \(report)"))
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.contains(#""commands":10,"#) && page.contains("Content-Security-Policy"))
        let svg = try String(contentsOf: diagram, encoding: .utf8)
        for handler in ["CoinCounter", "PennyValidator", "NickelValidator", "DimeValidator", "QuarterValidator"] {
            #expect(svg.contains("⚠ \(handler)") == flagged.contains(handler), "\(handler)")
        }

        #expect(traces.map(\.commandID) == (1...10).map { String(format: "c%02d", $0) })
        #expect(traces.allSatisfy { $0.chain == "vending-machine" && $0.entry == "CoinCounter" })
        #expect(traces[0].payload == ["id": "c01", "diameter": 24.26, "weight": 5.67])
        #expect(traces.filter { $0.outcome == .fellOffTheEnd }.map(\.commandID) == ["c05", "c08"])
        #expect(traces.allSatisfy { $0.hops.first?.startOffset == 0 })
    }

    @Test func theDeliberatelySlowValidatorIsTheSlowestBySelfTime() throws {
        let log = temporaryFile("traces.jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        _ = try sample.run(["--trace-out", log.path, "--diagram", temporaryFile("unused.svg").path])
        let hops = try TraceLogReader.readAll(path: log.path).traces.flatMap(\.hops)
        let quarter = hops.filter { $0.handler == "QuarterValidator" }.map(\.selfDuration)
        let others = hops.filter { $0.handler != "QuarterValidator" }.map(\.selfDuration).sorted()
        #expect(quarter.allSatisfy { $0 >= 2_000_000 })
        #expect(others[others.count / 2] < 100_000)
    }

    /// Runs the sample on a coin stream holding `text`; returns the stream's path and what the sample did.
    func run(onCoins text: String) throws -> (path: String, output: BuiltProduct.Output) {
        let coins = temporaryFile("coins.jsonl")
        defer { try? FileManager.default.removeItem(at: coins) }
        try text.write(to: coins, atomically: true, encoding: .utf8)
        return (
            coins.path,
            try sample.run([
                coins.path, "--trace-out", temporaryFile("unused.jsonl").path, "--diagram",
                temporaryFile("unused.svg").path,
            ])
        )
    }

    @Test func aCoinWithAWronglyTypedFieldIsReportedWithFileLineAndWhatWasFound() throws {
        let (path, output) = try run(
            onCoins:
                "{\"id\":\"a\",\"diameter\":19.05,\"weight\":2.5}\n\n{\"id\":\"b\",\"diameter\":\"big\",\"weight\":2.5}\n"
        )
        #expect(output.status == 2)
        #expect(
            output.standardError
                == "VendingMachine: \(path):3: expected \"diameter\" to be a number, found the string \"big\"\n"
        )
    }

    @Test func aMalformedCoinStreamIsReportedWithFileLineAndColumn() throws {
        let (path, output) = try run(
            onCoins:
                "{\"id\":\"a\",\"diameter\":19.05,\"weight\":2.5}\n{\"id\":\"b\",\"diameter\":19.05 \"weight\":2.5}\n"
        )
        #expect(output.status == 2)
        #expect(output.standardError == "VendingMachine: \(path):2:28: expected ',' or '}', found '\"'\n")
    }
}
