import ChainTrace
import ChainTraceDefinitions
import ChainTraceReplay
import ChainTraceTraceLog
import Foundation
import SampleSupport

/// Screens register in a registry up the chain as they appear and deregister as they disappear, the frontmost
/// (highest weight) asked first; a proxy forwards only the media player's actions. The script is a command stream:
/// its `register` / `deregister` lines are screens appearing and disappearing, its commands are user actions.
///
/// Usage: LateResponders [STREAM.jsonl] [--trace-out FILE] [--diagram FILE]
///   STREAM.jsonl  default: Samples/LateResponders/late-responders.commands.jsonl
///   --trace-out   the trace log (default: late-responders.traces.jsonl)
///   --diagram     the profile diagram (default: late-responders.svg)
@main
struct LateResponders {
    static func main() {
        do {
            try run(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("LateResponders: \(error)\n".utf8))
            exit(2)
        }
    }

    static func run(arguments: [String]) throws {
        let defaults = SampleArguments(
            input: "Samples/LateResponders/late-responders.commands.jsonl",
            traceLog: "late-responders.traces.jsonl",
            diagram: "late-responders.svg"
        )
        guard
            let arguments = try SampleArguments.parse(
                arguments,
                defaults: defaults,
                usage: "LateResponders [STREAM.jsonl] [--trace-out FILE] [--diagram FILE]"
            )
        else { return }
        let streamPath = arguments.input
        let player = MediaPlayer()
        let memory = InMemoryTraceSink()
        let chain = try makeLateResponderChain(player: player, recorder: Recorder(sink: memory, payloads: .captured))
        let screens = try chain.registry("Screens")

        let stream = try CommandStreamReader(path: streamPath)
        while let (line, item) = try stream.next() {
            switch item {
            case .change(.register(let definition, _)):
                guard let screen = Screen.catalogue[definition.name] else {
                    throw SampleUsageError(
                        "\(streamPath):\(line): expected a screen of \(Screen.catalogue.keys.sorted()), found \"\(definition.name)\""
                    )
                }
                try screens.register(Handler(screen), weight: screen.weight)
                print("\(screen.name) appears (weight \(screen.weight)): Screens asks \(try order(of: screens))")
            case .change(.deregister(let name, _)):
                _ = try screens.deregister(name)
                print("\(name) disappears: Screens asks \(try order(of: screens))")
            case .change(let other):
                throw SampleUsageError(
                    "\(streamPath):\(line): expected a screen to register or deregister, found \(other)"
                )
            case .command(let command):
                guard let name = command.fields["action"]?.stringValue else {
                    throw SampleUsageError("\(streamPath):\(line): expected an \"action\", found none")
                }
                let result = try chain.send(Action(id: command.id, name: name))
                let trace = memory.traces[memory.traces.count - 1]
                print(
                    "  \(command.id ?? "line \(line)") \(name): \(trace.path.joined(separator: " → ")) ⇒ \(result ?? trace.outcome.description)"
                )
            }
        }
        print("player performed: \(player.actions.joined(separator: ", "))")

        let log = try TraceLogSink(path: arguments.traceLog)
        for trace in memory.traces { log.record(trace) }
        try log.close()
        try SampleOutput.writeProfileDiagram(of: memory.traces, to: arguments.diagram)
        let report = try SampleOutput.writeReport(of: memory.traces, besides: arguments.diagram)
        print("trace log: \(arguments.traceLog); diagram: \(arguments.diagram); report: \(report)")
    }

    /// The registry's members in the order it asks them.
    static func order(of registry: Registry<Handler<Action, String>>) throws -> String {
        let members = try registry.members()
        return members.isEmpty ? "nobody" : members.map { "\($0.name) (\($0.weight))" }.joined(separator: " → ")
    }
}
