import ChainTraceTestSupport
import Foundation
import Testing

/// Every reading command, run as a user runs it, on generated trace logs whose numbers reach `Int64`'s bounds:
/// the process always ends with a documented status (0, 1 or 2), never a signal.
@Suite("Commands on logs with extreme numbers")
struct ExtremeNumberCommandTests {
    static let values: [String] = [
        "0", "1", "999", "4294967296", "9007199254740993", "4611686018427387904", "9223372036854775806",
        "9223372036854775807",
    ]

    /// A version-1 trace log written as text (not by our encoder), with extreme times and start times.
    static func log(_ random: inout SeededGenerator) -> String {
        var lines = [#"{"format":"chaintrace-trace-log","version":1}"#]
        for id in 0..<Int.random(in: 1...8, using: &random) {
            let count = Int.random(in: 1...4, using: &random)
            var hops: [String] = []
            var outcome = #"{"kind":"fellOffTheEnd"}"#
            for position in 0..<count {
                let last = position == count - 1
                let decision =
                    last ? random.pick(["accepted", "passed", "failed"]) : random.pick(["passed", "continued"])
                if last && decision == "accepted" { outcome = #"{"handler":"H\#(position)","kind":"accepted"}"# }
                if last && decision == "failed" {
                    outcome = #"{"error":"e","handler":"H\#(position)","kind":"failed"}"#
                }
                let reason = decision == "failed" ? #","reason":"e""# : ""
                hops.append(
                    #"{"decision":"\#(decision)","handler":"H\#(position)","inclusiveNs":\#(random.pick(values)),"position":\#(position)\#(reason),"selfNs":\#(random.pick(values)),"startOffsetNs":\#(random.pick(values))}"#
                )
            }
            let start = random.pick(values + ["-9223372036854775808", "-1"])
            lines.append(
                #"{"chain":"x","chainVersion":\#(random.pick(["0", "9223372036854775807"])),"command":{"id":"c\#(id)","kind":"K"},"durationNs":\#(random.pick(values)),"entry":"H0","hops":[\#(hops.joined(separator: ","))],"id":\#(random.pick(values)),"outcome":\#(outcome),"startTimeNs":\#(start)}"#
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func readingCommandsEndWithADocumentedStatus(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let log = directory.appendingPathComponent("extreme.jsonl").path
        let other = directory.appendingPathComponent("other.jsonl").path
        try Self.log(&random).write(toFile: log, atomically: true, encoding: .utf8)
        try Self.log(&random).write(toFile: other, atomically: true, encoding: .utf8)
        let commands: [[String]] = [
            ["stats", log], ["stats", log, "--format", "json", "--slow", "share>1%,2x-median,max>1ns"],
            ["diff", log, other], ["diff", log, other, "--format", "json"],
            ["export", "--to", "chrome", log], ["export", "--to", "folded", log],
            ["export", "--to", "folded", "--unit", "nanoseconds", log], ["gen-tests", log],
            ["render", "--trace", log, "--format", "dot", "-o", directory.appendingPathComponent("p.dot").path],
            [
                "render", "--trace", log, "--command", "c0", "--format", "dot", "-o",
                directory.appendingPathComponent("c.dot").path,
            ],
            ["render", "--diff", log, other, "--format", "svg", "-o", directory.appendingPathComponent("d.svg").path],
        ]
        for arguments in commands {
            let output = try CLI.binary.run(arguments)
            #expect(
                [0, 1, 2].contains(output.status),
                "seed \(seed): chaintrace \(arguments.joined(separator: " ")) ended with \(output.status)\n\(output.standardError.prefix(2_000))"
            )
            #expect(!output.standardError.contains("Fatal error"), "seed \(seed): \(arguments)")
            // The logs are valid: reading them must succeed, not merely fail politely.
            if arguments[0] == "stats" || arguments[0] == "export" {
                #expect(output.status == 0, "seed \(seed): \(arguments): \(output.standardError.prefix(500))")
            }
        }
    }
}
