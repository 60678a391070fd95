import ChainTrace
import ChainTraceFormats
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
        var coinsPath = "Samples/VendingMachine/coins.jsonl"
        var tracePath = "vending-machine.traces.jsonl"
        var diagramPath = "vending-machine.svg"
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--trace-out":
                guard let path = remaining.popFirst() else { throw UsageError("--trace-out needs a file name") }
                tracePath = path
            case "--diagram":
                guard let path = remaining.popFirst() else { throw UsageError("--diagram needs a file name") }
                diagramPath = path
            case "-h", "--help":
                print("usage: VendingMachine [COINS.jsonl] [--trace-out FILE] [--diagram FILE]")
                return
            default:
                coinsPath = argument
            }
        }
        let coins = try CoinStream.read(path: coinsPath)
        let log = try TraceLogSink(path: tracePath)
        let memory = InMemoryTraceSink()
        let machine = makeValidatorChain(slowSensor: 200_000)

        var total = 0
        ChainTracing.withRecorder(Recorder(sink: FanOutTraceSink([memory, log]))) {
            for coin in coins {
                let kind = machine.validate(coin)
                total += kind?.cents ?? 0
            }
        }
        try log.close()
        let slow = try SampleOutput.writeProfileDiagram(of: memory.traces, to: diagramPath)

        for trace in memory.traces {
            let path = trace.hops.map { "\($0.handler)(\($0.decision.rawValue))" }.joined(separator: " → ")
            print("\(trace.commandID ?? "?"): \(path) ⇒ \(trace.outcome)")
        }
        print("")
        print("accepted \(total) cents from \(coins.count) coins; trace log: \(tracePath)")
        print("diagram: \(diagramPath)\(slow.isEmpty ? "" : " (slow: \(slow.joined(separator: ", ")))")")
        print("")
        print(HandlerSummary(traces: memory.traces).table)
    }
}

struct UsageError: Error, CustomStringConvertible {  // kept for its tests; new samples use SampleUsageError
    var description: String
    init(_ description: String) { self.description = description }
}
