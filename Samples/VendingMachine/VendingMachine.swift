import ChainTrace
import ChainTraceTraceLog
import Foundation
import SampleSupport

/// Feeds the coins of a JSON-Lines stream through an instrumented validator chain, writes every trace to a
/// trace log, draws their profile, and prints each coin's path and a per-handler summary.
///
/// Usage: VendingMachine [COINS.jsonl] [--trace-out FILE] [--diagram FILE]
///   COINS.jsonl   one coin per line: {"id":"c1","diameter":24.3,"weight":5.7}
///                 (default: Samples/VendingMachine/coins.jsonl)
///   --trace-out   where to write the trace log (default: vending-machine.traces.jsonl)
///   --diagram     where to draw the profile, slow validator flagged (default: vending-machine.svg; .png, .pdf, .dot too)
@main
struct VendingMachine {
    static func main() {
        do {
            try run(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("VendingMachine: \(error)\n".utf8))
            exit(2)
        }
    }

    static func run(arguments: [String]) throws {
        let defaults = SampleArguments(
            input: "Samples/VendingMachine/coins.jsonl",
            traceLog: "vending-machine.traces.jsonl",
            diagram: "vending-machine.svg"
        )
        guard
            let arguments = try SampleArguments.parse(
                arguments,
                defaults: defaults,
                usage: "VendingMachine [COINS.jsonl] [--trace-out FILE] [--diagram FILE]"
            )
        else { return }
        let (coinsPath, tracePath, diagramPath) = (arguments.input, arguments.traceLog, arguments.diagram)
        let coins = try CoinStream.read(path: coinsPath)
        let log = try TraceLogSink(path: tracePath)
        let memory = InMemoryTraceSink()
        let machine = makeValidatorChain(slowSensor: 2_000_000)

        var total = 0
        ChainTracing.withRecorder(Recorder(sink: FanOutTraceSink([memory, log]), payloads: .captured)) {
            for coin in coins {
                let kind = machine.validate(coin)
                total += kind?.cents ?? 0
            }
        }
        try log.close()
        let slow = try SampleOutput.writeProfileDiagram(of: memory.traces, to: diagramPath)
        let report = try SampleOutput.writeReport(of: memory.traces, besides: diagramPath)

        for trace in memory.traces {
            let path = trace.hops.map { "\($0.handler)(\($0.decision.rawValue))" }.joined(separator: " → ")
            print("\(trace.commandID ?? "?"): \(path) ⇒ \(trace.outcome)")
        }
        print("")
        print("accepted \(total) cents from \(coins.count) coins; trace log: \(tracePath)")
        print("diagram: \(diagramPath)\(slow.isEmpty ? "" : " (slow: \(slow.joined(separator: ", ")))")")
        print("report: \(report)")
        print("")
        print(HandlerSummary(traces: memory.traces).table)
    }
}
