import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceGraphviz
import ChainTraceReplay
import ChainTraceTraceLog
import Foundation
import SampleSupport

/// A white-label app's responder tree, assembled from one JSON definition per configuration (apps A, B and C load
/// different modules), fed commands fired from its leaves; a module is plugged in while it runs (a change line of
/// the command stream), and a dry run asks who would take a command before anything is sent.
///
/// Usage: ResponderChain [--app a|b|c] [--commands FILE] [--definitions DIR] [--out-dir DIR]
///   --app          one configuration (default: all three)
///   --commands     the command stream (default: Samples/ResponderChain/commands.jsonl)
///   --definitions  where app-a/b/c.chain.json are (default: Samples/ResponderChain)
///   --out-dir      where responder-chain-app-X.traces.jsonl and .svg go (default: the current directory)
@main
struct ResponderChain {
    static func main() {
        do {
            try run(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("ResponderChain: \(error)\n".utf8))
            exit(2)
        }
    }

    static func run(arguments: [String]) throws {
        var apps = ["a", "b", "c"]
        var commandsPath = "Samples/ResponderChain/commands.jsonl"
        var definitions = "Samples/ResponderChain"
        var outputDirectory = "."
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" {
                print("usage: ResponderChain [--app a|b|c] [--commands FILE] [--definitions DIR] [--out-dir DIR]")
                return
            }
            guard let value = remaining.popFirst() else { throw SampleUsageError("\(argument) needs a value") }
            switch argument {
            case "--app":
                guard ["a", "b", "c"].contains(value) else {
                    throw SampleUsageError("--app: expected a, b or c, found \"\(value)\"")
                }
                apps = [value]
            case "--commands": commandsPath = value
            case "--definitions": definitions = value
            case "--out-dir": outputDirectory = value
            default: throw SampleUsageError("unknown option \"\(argument)\"")
            }
        }
        for app in apps {
            try runApp(
                "app-\(app)",
                definitionPath: "\(definitions)/app-\(app).chain.json",
                commandsPath: commandsPath,
                outputDirectory: outputDirectory
            )
        }
    }

    static func runApp(_ app: String, definitionPath: String, commandsPath: String, outputDirectory: String) throws {
        let definition = try ChainDefinition.load(path: definitionPath)
        let effects = ModuleEffects()
        let types = moduleTypes(effects: effects)
        let memory = InMemoryTraceSink()
        let chain = try definition.makeChain(types: types, recorder: Recorder(sink: memory, payloads: .captured))

        // The dry run: who would take a help request from a cell? Nothing is performed.
        let help = JSONCommand(kind: "Menu", entry: "Cell", fields: ["action": "help"])
        let dryRun = try chain.whoWouldHandle(help, from: "Cell")
        print(
            "\(app): who would take \"help\" from Cell? \(dryRun.handler ?? "nobody") (asks \(dryRun.path.joined(separator: " → ")))"
        )

        let stream = try CommandStreamReader(path: commandsPath)
        while let (line, item) = try stream.next() {
            switch item {
            case .command(let command):
                let result = try chain.send(command, from: command.entry)
                let trace = memory.traces[memory.traces.count - 1]
                // A module answers with what it did; a responder made from rules answers with its own name.
                let answer =
                    result?.stringValue.flatMap { $0 == trace.outcome.acceptingHandler ? nil : ": \($0)" } ?? ""
                print(
                    "  \(command.id ?? "line \(line)"): \(trace.path.joined(separator: " → ")) ⇒ \(trace.outcome)\(answer)"
                )
            case .change(let change):
                try change.apply(to: chain, definition: definition, types: types, unknownTypes: .refuse)
                print(
                    "  line \(line): \(change) (a module plugged in while the app runs; chain version \(chain.version))"
                )
            }
        }
        let favourites = effects.favourites.isEmpty ? "none" : effects.favourites.joined(separator: ", ")
        print("  analytics recorded \(effects.events.count) events; favourites: \(favourites)")

        let log = try TraceLogSink(path: "\(outputDirectory)/responder-chain-\(app).traces.jsonl")
        for trace in memory.traces { log.record(trace) }
        try log.close()
        // Responders here take microseconds; with a handful of commands a relative rule would flag noise, so only
        // an absolute threshold (and any budget) flags a handler.
        let rule = SlowHandlerRule(clauses: [.over(.p95, nanoseconds: 1_000_000)])
        let diagram = "\(outputDirectory)/responder-chain-\(app).svg"
        try SampleOutput.writeProfileDiagram(
            of: memory.traces,
            over: ChainGraph(definition: definition),
            rule: rule,
            to: diagram
        )
        try SampleOutput.writeReport(
            of: memory.traces,
            over: ChainGraph(definition: definition),
            rule: rule,
            besides: diagram
        )
        print(
            "  trace log, diagram and report: \(outputDirectory)/responder-chain-\(app).traces.jsonl, .svg, .report.html"
        )
    }
}
