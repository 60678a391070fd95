import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `chaintrace export --to otlp`, read back with OpenTelemetry's own definitions (`Scripts/validate-otlp.py`
/// parses it into `ExportTraceServiceRequest` with `opentelemetry-proto` from PyPI): generated logs whose hops
/// nest as a known tree — nested handlers, sequential ones, both — come out as one trace per command with one
/// span per hop, each under the span of the hop it ran inside, with the hop's times, decision, registry, reason
/// and failure status; hostile names survive exactly; extreme times still make a valid request. The vending
/// machine sample's log (an existing chain instrumented with `traceHop`, every handler calling the next) nests
/// each hop under the one before.
///
/// Needs `python3` with `opentelemetry-proto` (`.ci/run` installs it); without it the tests are skipped, except
/// on CI (`CI` set), where they fail.
@Suite("OTLP export, validated by opentelemetry-proto")
struct OTLPExportTests {
    static var validatorAvailable: Bool {
        PythonScript.canImport("opentelemetry.proto.collector.trace.v1.trace_service_pb2")
    }

    static var required: Bool { PythonScript.isCI }

    /// For a test of seed `seed`: its generator, and a generated log (``generatedLog(_:)``) drawn from it — `nil`
    /// when the validator cannot run (an issue on CI, which installs it).
    static func generatedLogIfValidatorIsThere(seed: UInt64) throws
        -> (random: SeededGenerator, traces: [Trace], parents: [[Int]], directory: URL, log: String)?
    {
        guard validatorIsThere() else { return nil }
        var random = SeededGenerator(seed: seed)
        let (traces, parents, directory, log) = try generatedLog(&random)
        return (random, traces, parents, directory, log)
    }

    /// Whether the validator can run; an issue when it cannot on CI, which installs it.
    static func validatorIsThere() -> Bool {
        #expect(validatorAvailable, "CI needs opentelemetry-proto (pip install opentelemetry-proto)")
        return validatorAvailable
    }

    /// What the validator read: per trace, per span `[name, parent index, start offset, duration, status, attributes]`.
    static func validate(_ path: String, anyTimes: Bool = false, lines: Bool = false) throws -> [[[Any]]] {
        let run = try PythonScript.run(
            "validate-otlp.py",
            (anyTimes ? ["--any-times"] : []) + (lines ? ["--lines"] : []) + [path]
        )
        #expect(run.status == 0, "validate-otlp: \(run.errors)")
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
        return object["list"] as? [[[Any]]] ?? []
    }

    /// `--batch N`: JSON Lines of requests of N traces each (a collector refuses one request for a big log), which
    /// opentelemetry-proto reads line by line as the same spans, ids included, as the one request of the whole log;
    /// each trace whole in one line.
    @Test(
        .enabled(if: validatorAvailable || required, "python3 with opentelemetry-proto is not installed"),
        arguments: SeededGenerator.seeds(4)
    )
    func batchesHoldTheSpansOfOneRequest(seed: UInt64) throws {
        guard let generated = try Self.generatedLogIfValidatorIsThere(seed: seed) else { return }
        var random = generated.random
        let (traces, directory, log) = (generated.traces, generated.directory, generated.log)
        let whole = directory.appendingPathComponent("whole.json").path
        let batched = directory.appendingPathComponent("batched.jsonl").path
        let batch = Int.random(in: 1...(traces.count + 2), using: &random)
        #expect(try CLI.run("export", "--to", "otlp", log, "-o", whole).status == 0)
        let run = try CLI.run("export", "--to", "otlp", log, "--batch", String(batch), "-o", batched)
        #expect(run.status == 0, "seed \(seed): \(run.standardError)")
        let text = try String(contentsOfFile: batched, encoding: .utf8)
        #expect(text.split(separator: "\n").count == (traces.count + batch - 1) / batch, "seed \(seed), batch \(batch)")
        #expect(text.hasSuffix("\n"), "seed \(seed)")
        #expect(try Self.validate(batched, lines: true).count == traces.count, "seed \(seed)")
        // What the validator lists (names, parents, times, statuses, attributes, in file order) is the same text.
        let one = try PythonScript.run("validate-otlp.py", [whole])
        let lines = try PythonScript.run("validate-otlp.py", ["--lines", batched])
        #expect(
            one.status == 0 && lines.status == 0 && lines.output == one.output,
            "seed \(seed), batch \(batch): \(lines.errors)"
        )
        // And the same ids: those of the whole log, whatever the batch.
        func ids(_ text: String) -> [Substring] {
            text.split(separator: "\"spanId\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }
                + text.split(separator: "\"traceId\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        }
        #expect(ids(text) == ids(try String(contentsOfFile: whole, encoding: .utf8)), "seed \(seed), batch \(batch)")

        let misplaced = try CLI.run("export", "--to", "chrome", log, "--batch", "3")
        #expect(
            misplaced.status == 2 && misplaced.standardError.contains("--batch is for --to otlp"),
            "\(misplaced.standardError)"
        )
    }

    /// A trace whose hops nest as a random tree; `parents[i]` is hop i's parent hop, or -1 for the command.
    static func trace(_ random: inout SeededGenerator, id: UInt64, names: [String]) -> (Trace, parents: [Int]) {
        let count = Int.random(in: 1...8, using: &random)
        var parents: [Int] = []
        var open: [Int] = []  // the hops a new hop may nest in: the last hop and its ancestors
        for index in 0..<count {
            // Nest in the last hop, in one of its ancestors, or start at the top.
            let depth = open.isEmpty ? 0 : Int.random(in: 0...open.count, using: &random)
            open = Array(open.prefix(depth))
            parents.append(open.last ?? -1)
            open.append(index)
        }
        // Lay the tree out in time: each hop has some own time before its children and some after.
        var start = [UInt64](repeating: 0, count: count)
        var inclusive = [UInt64](repeating: 0, count: count)
        var selfTime = [UInt64](repeating: 0, count: count)
        func layout(_ hop: Int, at time: UInt64) -> UInt64 {
            start[hop] = time
            let before = UInt64.random(in: 1...5_000, using: &random)
            let after = UInt64.random(in: 1...5_000, using: &random)
            var cursor = time + before
            for child in parents.indices where parents[child] == hop { cursor = layout(child, at: cursor) }
            selfTime[hop] = before + after
            inclusive[hop] = cursor + after - time
            return cursor + after
        }
        var cursor: UInt64 = 0
        for top in parents.indices where parents[top] == -1 { cursor = layout(top, at: cursor) }
        let ending = random.pick([Decision.accepted, .failed, .passed])
        let hops = (0..<count).map { index in
            let last = index == count - 1
            let decision = last ? ending : random.pick([Decision.passed, .continued])
            return Hop(
                handler: random.pick(names),
                position: index,
                decision: decision,
                reason: decision == .failed ? random.hostileName() : random.chance(0.2) ? "why \(index)" : nil,
                registry: random.chance(0.2) ? random.pick(names) : nil,
                startOffset: start[index],
                inclusiveDuration: inclusive[index],
                selfDuration: selfTime[index]
            )
        }
        let lastHop = hops[count - 1]
        let outcome: Outcome =
            ending == .accepted
            ? .accepted(by: lastHop.handler)
            : ending == .failed ? .failed(at: lastHop.handler, error: lastHop.reason ?? "") : .fellOffTheEnd
        let trace = Trace(
            id: id,
            commandKind: random.pick(["Tap", "Swipe"]),
            commandID: random.chance(0.7) ? "c\(id)" : nil,
            entry: hops[0].handler,
            chain: random.pick(["editor", random.hostileName()]),
            chainVersion: Int.random(in: 0...9, using: &random),
            startTime: 1_700_000_000_000_000_000 + Int64(id) * 1_000_000,
            hops: hops,
            outcome: outcome,
            duration: cursor
        )
        return (trace, parents)
    }

    /// 1–60 generated traces over five handlers (some of hostile names), with each trace's parent of each hop, written
    /// as a log in a directory of its own.
    static func generatedLog(_ random: inout SeededGenerator) throws -> (
        traces: [Trace], parents: [[Int]], directory: URL, log: String
    ) {
        let names = (0..<5).map { random.chance(0.5) ? random.hostileName() + "·\($0)" : "H\($0)" }
        var traces: [Trace] = []
        var parents: [[Int]] = []
        for id in 0..<UInt64.random(in: 1...60, using: &random) {
            let (trace, tree) = Self.trace(&random, id: id, names: names)
            traces.append(trace)
            parents.append(tree)
        }
        let directory = try CLI.temporaryDirectory()
        let log = try CLI.write(
            TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] },
            named: "log.jsonl",
            in: directory
        )
        return (traces, parents, directory, log)
    }

    @Test(
        .enabled(if: validatorAvailable || required, "python3 with opentelemetry-proto is not installed"),
        arguments: SeededGenerator.seeds(6)
    )
    func spansNestAsTheHopsDidAndCarryWhatTheLogSays(seed: UInt64) throws {
        guard let (_, traces, parents, directory, log) = try Self.generatedLogIfValidatorIsThere(seed: seed) else {
            return
        }
        let otlp = directory.appendingPathComponent("spans.json").path
        let run = try CLI.run("export", "--to", "otlp", log, "-o", otlp)
        #expect(run.status == 0, "seed \(seed): \(run.standardError)")
        let read = try Self.validate(otlp)
        #expect(read.count == traces.count, "seed \(seed)")
        for (index, (trace, spans)) in zip(traces, read).enumerated() {
            #expect(spans.count == trace.hops.count + 1, "seed \(seed), trace \(index)")
            guard spans.count == trace.hops.count + 1 else { continue }
            let root = spans[0]
            #expect(root[0] as? String == "\(trace.chain) \(trace.commandKind)", "seed \(seed)")
            #expect(root[1] as? Int == -1 && root[3] as? UInt64 == trace.duration, "seed \(seed)")
            #expect(
                (root[4] as? Int == 2) == (trace.outcome.failingHandler != nil),
                "seed \(seed): the command's status"
            )
            let rootAttributes = root[5] as? [String: Any] ?? [:]
            #expect(rootAttributes["chaintrace.chain.version"] as? Int == trace.chainVersion, "seed \(seed)")
            #expect(rootAttributes["chaintrace.command.id"] as? String == trace.commandID, "seed \(seed)")
            for (position, hop) in trace.hops.enumerated() {
                let span = spans[position + 1]
                let attributes = span[5] as? [String: Any] ?? [:]
                #expect(
                    span[0] as? String == hop.handler && attributes["chaintrace.handler"] as? String == hop.handler,
                    "seed \(seed)"
                )
                // The parent is the span of the hop this one ran inside (span index = hop index + 1), else the command's.
                #expect(
                    span[1] as? Int == parents[index][position] + 1,
                    "seed \(seed), trace \(index), hop \(position): parent"
                )
                #expect(
                    span[2] as? UInt64 == hop.startOffset && span[3] as? UInt64 == hop.inclusiveDuration,
                    "seed \(seed): times"
                )
                #expect((span[4] as? Int == 2) == (hop.decision == .failed), "seed \(seed): status")
                #expect(attributes["chaintrace.decision"] as? String == hop.decision.rawValue, "seed \(seed)")
                #expect(attributes["chaintrace.position"] as? Int == position, "seed \(seed)")
                #expect(attributes["chaintrace.self_ns"] as? UInt64 == hop.selfDuration, "seed \(seed)")
                #expect(attributes["chaintrace.reason"] as? String == hop.reason, "seed \(seed)")
                #expect(attributes["chaintrace.registry"] as? String == hop.registry, "seed \(seed)")
            }
        }
    }

    @Test(.enabled(if: validatorAvailable || required, "python3 with opentelemetry-proto is not installed"))
    func extremeTimesStillMakeAValidRequest() throws {
        #expect(Self.validatorAvailable)
        guard Self.validatorAvailable else { return }
        let hops = [
            Hop(
                handler: "A",
                position: 0,
                decision: .passed,
                startOffset: 0,
                inclusiveDuration: .max,
                selfDuration: .max
            ),
            Hop(
                handler: "B",
                position: 1,
                decision: .failed,
                reason: "boom",
                startOffset: .max - 1,
                inclusiveDuration: .max,
                selfDuration: 0
            ),
        ]
        let traces = [
            Trace(
                id: 1,
                commandKind: "K",
                entry: "A",
                chain: "c",
                startTime: .min,
                hops: hops,
                outcome: .failed(at: "B", error: "boom"),
                duration: .max
            ),
            Trace(
                id: 2,
                commandKind: "K",
                entry: "A",
                chain: "c",
                startTime: .max,
                hops: hops,
                outcome: .failed(at: "B", error: "boom"),
                duration: .max
            ),
        ]
        let directory = try CLI.temporaryDirectory()
        let log = try CLI.write(
            TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] },
            named: "x.jsonl",
            in: directory
        )
        let otlp = directory.appendingPathComponent("x.json").path
        #expect(try CLI.run("export", "--to", "otlp", log, "-o", otlp).status == 0)
        // Saturated times: the hops outlast the command here, as the log says; the request is still valid.
        #expect(try Self.validate(otlp, anyTimes: true).count == 2)
    }

    @Test(.enabled(if: validatorAvailable || required, "python3 with opentelemetry-proto is not installed"))
    func theVendingMachinesHopsNestOneInsideTheNext() throws {
        #expect(Self.validatorAvailable)
        guard Self.validatorAvailable else { return }
        let directory = try CLI.temporaryDirectory()
        let log = directory.appendingPathComponent("vending.traces.jsonl").path
        let sample = try BuiltProduct(name: "VendingMachine").run(
            ["--trace-out", log, "--diagram", directory.appendingPathComponent("vending.svg").path])
        #expect(sample.status == 0, "\(sample.standardError)")
        let otlp = directory.appendingPathComponent("vending.otlp.json").path
        #expect(try CLI.run("export", "--to", "otlp", log, "-o", otlp).status == 0)
        let read = try Self.validate(otlp)
        #expect(read.count == 10)
        for spans in read {
            // The command, then CoinCounter under it, then each validator under the one that called it.
            #expect(
                spans.enumerated().allSatisfy { index, span in span[1] as? Int == index - 1 },
                "\(spans.map { $0[0] })"
            )
        }
    }

    /// Docs/Integrations.md's recipe for a recorded log: the export POSTed to an OTLP/HTTP receiver on loopback
    /// (`Examples/OpenTelemetry/check-live-export.py --post-export`, the same receiver that checks the live example)
    /// as OTLP/JSON — plain and gzip, as curl sends it — and as protobuf arrives as exactly the spans of the file.
    @Test(
        .enabled(if: validatorAvailable || required, "python3 with opentelemetry-proto is not installed"),
        arguments: ["sample", "generated"]
    )
    func anExportPostedToAReceiverArrivesWhole(log kind: String) throws {
        #expect(Self.validatorAvailable)
        guard Self.validatorAvailable else { return }
        let directory = try CLI.temporaryDirectory()
        let log = directory.appendingPathComponent("\(kind).traces.jsonl").path
        if kind == "sample" {
            let sample = try BuiltProduct(name: "VendingMachine").run(
                ["--trace-out", log, "--diagram", directory.appendingPathComponent("vending.svg").path])
            #expect(sample.status == 0, "\(sample.standardError)")
        } else {
            var random = SeededGenerator(seed: 44)
            let names = (0..<5).map { random.chance(0.5) ? random.hostileName() + "·\($0)" : "H\($0)" }
            let traces = (0..<40).map { Self.trace(&random, id: UInt64($0), names: names).0 }
            _ = try CLI.write(
                TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] },
                named: "\(kind).traces.jsonl",
                in: directory
            )
        }
        let chaintrace = try #require(BuiltProduct(name: "chaintrace").url).path
        let run = try PythonScript.run(
            "../Examples/OpenTelemetry/check-live-export.py",
            ["--post-export", log, "--chaintrace", chaintrace]
        )
        #expect(run.status == 0, "check-live-export: \(run.errors)")
        for label in ["OTLP/JSON", "OTLP/JSON, gzip", "protobuf"] {
            #expect(run.output.contains("\(label): \(kind == "sample" ? 10 : 40) traces"), "\(run.output)")
        }
    }
}
