import ChainTrace
import ChainTraceAnalysis
import ChainTraceTraceLog
import Foundation
import SampleSupport

/// Runs every sign-up of a JSON-Lines file through the async four-stage flow at once, each in its own trace,
/// then prints how each ended, writes the trace log and draws the flow's profile.
///
/// Usage: SignUpFlow [SIGNUPS.jsonl] [--trace-out FILE] [--diagram FILE]
///   SIGNUPS.jsonl  one sign-up per line: {"id":"s1","username":"ana","email":"ana@example.com","photo":"ana.jpg"}
///                  (default: Samples/SignUpFlow/signups.jsonl)
///   --trace-out    the trace log (default: sign-up.traces.jsonl)
///   --diagram      the profile diagram (default: sign-up.svg)
@main
struct SignUpFlow {
    static func main() async {
        do {
            try await run(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("SignUpFlow: \(error)\n".utf8))
            exit(2)
        }
    }

    static func run(arguments: [String]) async throws {
        let defaults = SampleArguments(
            input: "Samples/SignUpFlow/signups.jsonl",
            traceLog: "sign-up.traces.jsonl",
            diagram: "sign-up.svg"
        )
        guard
            let arguments = try SampleArguments.parse(
                arguments,
                defaults: defaults,
                usage: "SignUpFlow [SIGNUPS.jsonl] [--trace-out FILE] [--diagram FILE]"
            )
        else { return }
        let (formsPath, tracePath, diagramPath) = (arguments.input, arguments.traceLog, arguments.diagram)
        let forms = try SampleInput.lines(of: formsPath, as: SignUpForm.self)
        let memory = InMemoryTraceSink()
        let backend = Backend()
        try await backend.warmUp()
        // Payloads make the log replayable; an email address is personal data, so the log keeps only that there
        // was one (which is all the rules read).
        let recorder = Recorder(sink: memory, payloads: .captured(redacting: { form in form["email"] = "<redacted>" }))
        let flow = try makeSignUpChain(backend: backend, recorder: recorder)

        // Every sign-up at once: their hops interleave in time, yet each lands in its own trace.
        let results = await withTaskGroup(of: (Int, String).self) { group in
            for (index, form) in forms.enumerated() {
                group.addTask {
                    do {
                        let account = try await flow.send(form)
                        return (index, account.map(\.description) ?? "nobody finished it")
                    } catch {
                        return (index, "failed: \(error)")
                    }
                }
            }
            var results = [String](repeating: "", count: forms.count)
            for await (index, text) in group { results[index] = text }
            return results
        }
        // The log is written after the run: a file write inside it would hold up one of the few threads the
        // concurrent sign-ups share, and their measured times with it.
        let traces = memory.traces.sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
        let log = try TraceLogSink(path: tracePath)
        for trace in traces { log.record(trace) }
        try log.close()
        for (form, result) in zip(forms, results) { print("\(form.id): \(result)") }

        // Every stage waits on a service for milliseconds, so "over 1 ms" would flag them all; flag the stage that
        // takes most of the flow's time instead.
        let rule = SlowHandlerRule(clauses: [.share(over: 0.4)])
        let slow = try SampleOutput.writeProfileDiagram(of: traces, rule: rule, to: diagramPath)
        let report = try SampleOutput.writeReport(of: traces, rule: rule, besides: diagramPath)
        print("")
        print(
            "\(forms.count) sign-ups, \(traces.count) traces; trace log: \(tracePath); diagram: \(diagramPath) (slow: \(slow.joined(separator: ", ")))"
        )
        print("report: \(report)")
        for trace in traces.sorted(by: { ($0.commandID ?? "") < ($1.commandID ?? "") })
        where trace.outcome.failingHandler != nil {
            print("  \(trace.commandID ?? "?") \(trace.outcome)")
        }
    }
}
