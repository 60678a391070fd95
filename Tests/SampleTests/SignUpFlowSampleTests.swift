import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import ChainTraceTesting
import ChainTraceTraceLog
import Foundation
import Testing

@Suite("The SignUpFlow sample, run as a user runs it")
struct SignUpFlowSampleTests {
    let sample = BuiltProduct(name: "SignUpFlow")
    static let stages = ["UsernameCheck", "CreateAccount", "UploadPhoto", "SaveProfile"]

    /// Runs the sample on its own sign-ups; returns what it printed and the traces of its log, by sign-up id.
    func run() throws -> (lines: [String], traces: [String: Trace], diagram: String) {
        let directory = try TestFiles.newDirectory("sign-up")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("traces.jsonl").path
        let diagram = directory.appendingPathComponent("profile.svg").path
        let output = try sample.run(["--trace-out", log, "--diagram", diagram])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let traces = try TraceLogReader.readAll(path: log).traces
        #expect(traces.count == 8)
        let report = directory.appendingPathComponent("profile.report.html").path
        #expect(output.standardOutput.contains("report: \(report)\n"))
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains(#""commands":8,"#))
        return (
            output.standardOutput.split(separator: "\n").map(String.init),
            Dictionary(uniqueKeysWithValues: traces.map { ($0.commandID ?? "?", $0) }),
            try String(contentsOfFile: diagram, encoding: .utf8)
        )
    }

    @Test func aCompleteSignUpGoesThroughEveryStageAndHandsTheAccountOn() throws {
        let (lines, traces, _) = try run()
        let ana = try #require(traces["s01"])
        expectPath(ana, Self.stages)
        expectHandled(ana, by: "SaveProfile")
        expectDecision(ana, "CreateAccount", .continued)
        // The account CreateAccount made reached UploadPhoto and SaveProfile: the photo sits under it.
        #expect(lines.contains("s01: account acct-ana for ana, photo https://cdn.example.com/acct-ana/ana.jpg"))
        // With no photo, the upload stage has nothing to do and says so.
        let eli = try #require(traces["s06"])
        expectDecision(eli, "UploadPhoto", .passed)
        #expect(eli.hop("UploadPhoto")?.reason == "no photo")
        expectHandled(eli, by: "SaveProfile")
    }

    @Test func aFailureNamesTheStageAndItsError() throws {
        let (lines, traces, _) = try run()
        let admin = try #require(traces["s03"])
        expectFailed(admin, at: "UsernameCheck", error: "username \"admin\" is taken")
        expectNotVisited(admin, "CreateAccount")
        let dara = try #require(traces["s05"])
        expectFailed(dara, at: "UploadPhoto", error: "upload of dara.jpg.corrupt failed: timed out after 12 ms")
        expectPath(dara, Array(Self.stages.prefix(3)))
        #expect(
            lines.contains(
                "  s05 failed at UploadPhoto: upload of dara.jpg.corrupt failed: timed out after 12 ms (SignUpError)"
            )
        )
    }

    @Test func concurrentSignUpsOverlapInTimeYetStaySeparate() throws {
        let (_, traces, _) = try run()
        let completed = traces.values.filter { $0.hops.count == 4 }
        // They ran at once: some sign-up started before another had finished.
        let overlapping = completed.contains { first in
            completed.contains { second in
                first.id != second.id && second.startTime > first.startTime
                    && UInt64(second.startTime - first.startTime) < first.duration
            }
        }
        #expect(overlapping)
        // Yet each trace holds only its own hops, in stage order, each starting after the one before.
        for trace in traces.values {
            #expect(Array(Self.stages.prefix(trace.hops.count)) == trace.path)
            #expect(zip(trace.hops, trace.hops.dropFirst()).allSatisfy { $0.startOffset < $1.startOffset })
        }
    }

    @Test func theDiagramFlagsTheUploadStage() throws {
        let (lines, traces, diagram) = try run()
        // The sample's rule applied to its own log. The upload waits 12 ms of a ~19 ms flow, so it takes the
        // largest share of the time, and is the stage flagged if any is. Whether its share passes 40% depends on
        // the machine: under load (a sanitizer, tests beside it) every wait is resumed late, by about as much for
        // each stage, which shrinks the upload's share — so what is flagged is computed, not fixed.
        let flagged = SlowHandlerRule(clauses: [.share(over: 0.4)]).flags(in: ChainProfile(Array(traces.values))).map(
            \.handler
        )
        var selfTime: [String: UInt64] = [:]
        for hop in traces.values.flatMap(\.hops) { selfTime[hop.handler, default: 0] += hop.selfDuration }
        let longest = try #require(selfTime.max { $0.value < $1.value }).key
        #expect(longest == "UploadPhoto", "\(selfTime)")
        #expect(flagged.isEmpty || flagged.contains("UploadPhoto"), "\(flagged)")
        #expect(lines.contains { $0.hasSuffix("(slow: \(flagged.joined(separator: ", ")))") })
        for handler in Set(traces.values.flatMap(\.path)) {
            #expect(diagram.contains("⚠ \(handler)") == flagged.contains(handler), "\(handler)")
        }
    }
}
