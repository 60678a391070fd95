import ArgumentParser
import ChainTrace
import ChainTraceDistributedTracing
import ChainTraceTraceLog
import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// `VendingMachineOTel bench`: what a traced hop costs when its spans go to a real swift-otel pipeline — the
/// batch span processor and the OTLP/HTTP exporter — beside the untraced chain, the recording alone and a trace
/// log, all in one run. Release build: `swift run -c release --package-path Examples/OpenTelemetry …`.
///
/// The chain is the top-level benchmark's: 10 handlers, every command visiting all 10. "caller" is the time on
/// the thread that sends the commands; "with export" adds the time until swift-otel has exported everything it
/// kept (a graceful shutdown flushes the batch processor). The collector must be running: spans the exporter
/// cannot deliver are lost, not counted here. `check-live-export.py --bench` starts one and adds what it received.
struct LiveExportBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the per-hop cost of exporting chain traces live through swift-otel's batch span processor."
    )

    @Option(help: "Commands per round (10 hops each).")
    var commands = 20_000

    @Option(help: "Rounds per row; the table gives the fastest and the slowest.")
    var rounds = 3

    @Option(help: "Write one JSON object per swift-otel round here (service name, spans made, times).")
    var rowsOut: String?

    func validate() throws {
        guard commands >= 1, rounds >= 1 else { throw ValidationError("--commands and --rounds must be at least 1") }
    }

    static let handlerCount = 10

    func run() async throws {
        var rows: [Row] = []
        var rounds: [RoundRecord] = []
        let hops = Double(commands * Self.handlerCount)

        rows.append(try measure("Chain, untraced") { Recorder.off })
        rows.append(try measure("Chain, traced, sink discards") { Recorder(sink: DiscardingSink()) })
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("otel-bench-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        var logRow = Row(name: "Chain, traced → TraceLogSink (compact, background)")
        for _ in 0..<self.rounds {
            let log = try TraceLogSink(path: logPath)
            let caller = time { send(makeChain(Recorder(sink: log))) }
            let total = caller + time { try? log.close() }
            logRow.add(caller: caller / hops, total: total / hops)
        }
        rows.append(logRow)

        let background = SpanTraceSink.Delivery.background(queueCapacity: commands)
        let pipelines:
            [(name: String, slug: String, hops: SpanTraceSink.HopStyle, sized: Bool, delivery: SpanTraceSink.Delivery)] =
                [
                    (
                        "→ swift-otel, span per hop, default batch processor", "spans-default", .spans, false,
                        .onRecordingThread
                    ),
                    (
                        "→ swift-otel, span per hop, queue sized for the run", "spans-sized", .spans, true,
                        .onRecordingThread
                    ),
                    (
                        "→ swift-otel, hops as events, default batch processor", "events-default", .events, false,
                        .onRecordingThread
                    ),
                    (
                        "→ swift-otel, span per hop, queue sized, background delivery", "spans-sized-background",
                        .spans, true, background
                    ),
                    (
                        "→ swift-otel, hops as events, background delivery", "events-default-background", .events,
                        false, background
                    ),
                ]
        for pipeline in pipelines {
            var row = Row(name: "Chain, traced " + pipeline.name)
            for round in 0..<self.rounds {
                let service = "chaintrace-bench-\(pipeline.slug)-\(round)"
                var configuration = OTel.Configuration.default
                configuration.serviceName = service
                configuration.logs.enabled = false
                configuration.metrics.enabled = false
                let spansPerCommand = pipeline.hops == .spans ? Self.handlerCount + 1 : 1
                let spans = commands * spansPerCommand
                if pipeline.sized {
                    configuration.traces.batchSpanProcessor.maxQueueSize = spans
                    configuration.traces.batchSpanProcessor.maxExportBatchSize = 4096
                    configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(100)
                }
                let backend = try OTel.makeTracingBackend(configuration: configuration)
                let group = ServiceGroup(services: [backend.service], logger: Logger(label: "bench"))
                let running = Task { try await group.run() }
                let sink = SpanTraceSink(tracer: backend.factory, hops: pipeline.hops, delivery: pipeline.delivery)
                let caller = time { send(makeChain(Recorder(sink: sink))) }
                let start = ContinuousClock.now
                sink.close()  // background delivery: every span made before swift-otel shuts down
                await group.triggerGracefulShutdown()
                try await running.value
                let total = caller + Double((ContinuousClock.now - start).nanoseconds)
                row.add(caller: caller / hops, total: total / hops)
                rounds.append(
                    RoundRecord(
                        row: row.name,
                        service: service,
                        spansMade: (commands - sink.droppedCount) * spansPerCommand,
                        tracesDroppedBySink: sink.droppedCount,
                        hops: commands * Self.handlerCount,
                        callerNanosecondsPerHop: caller / hops,
                        totalNanosecondsPerHop: total / hops
                    )
                )
            }
            rows.append(row)
        }

        print("Per hop, 10-handler chain, \(commands) commands × \(self.rounds) rounds (fastest–slowest round), ns:")
        print(Row.table(rows, baseline: rows[0]))
        if let rowsOut {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let lines = try rounds.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            try (lines.joined(separator: "\n") + "\n").write(toFile: rowsOut, atomically: true, encoding: .utf8)
        }
    }

    private func measure(_ name: String, recorder: () -> Recorder) throws -> Row {
        var row = Row(name: name)
        let hops = Double(commands * Self.handlerCount)
        for _ in 0..<rounds {
            let chain = makeChain(recorder())
            let caller = time { send(chain) }
            row.add(caller: caller / hops, total: caller / hops)
        }
        return row
    }

    private func makeChain(_ recorder: Recorder) -> Chain<BenchCommand, Int> {
        let count = Self.handlerCount
        let handlers = (0..<count).map { index in
            Handler<BenchCommand, Int>("Handler\(index)") { $0.value % count == index ? .accept(index) : .pass }
        }
        return try! Chain("benchmark", handlers: handlers, recorder: recorder)
    }

    private func send(_ chain: Chain<BenchCommand, Int>) {
        var accepted = 0
        for _ in 0..<commands { accepted &+= (try? chain.send(BenchCommand(value: Self.handlerCount - 1))) ?? 0 }
        precondition(accepted == commands * (Self.handlerCount - 1), "every command visits all handlers")
    }

    private func time(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        return Double((ContinuousClock.now - start).nanoseconds)
    }
}

/// The benchmark's command: handler `i` accepts `value` when `value % 10 == i`, so 9 visits all ten.
struct BenchCommand: Sendable { var value: Int }

/// Records nothing: the cost of recording alone.
struct DiscardingSink: TraceSink {
    func record(_ trace: Trace) {}
}

/// One row of the table: the fastest and slowest round.
struct Row {
    var name: String
    var caller: [Double] = []
    var total: [Double] = []

    mutating func add(caller: Double, total: Double) {
        self.caller.append(caller)
        self.total.append(total)
    }

    static func table(_ rows: [Row], baseline: Row) -> String {
        func range(_ values: [Double]) -> String {
            String(format: "%.0f–%.0f", values.min() ?? 0, values.max() ?? 0)
        }
        let base = baseline.caller.min() ?? 1
        let width = rows.map(\.name.count).max() ?? 0
        var lines = [
            "row".padding(toLength: width, withPad: " ", startingAt: 0)
                + "  caller ns/hop   with export ns/hop   caller over untraced"
        ]
        for row in rows {
            lines.append(
                row.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + range(row.caller).padding(toLength: 15, withPad: " ", startingAt: 0) + "  "
                    + range(row.total).padding(toLength: 19, withPad: " ", startingAt: 0) + "  "
                    + String(format: "+%.0f", (row.caller.min() ?? 0) - base)
            )
        }
        return lines.joined(separator: "\n")
    }
}

/// One swift-otel round, for the script that knows what the collector received.
struct RoundRecord: Codable {
    var row: String
    var service: String
    var spansMade: Int
    var tracesDroppedBySink: Int
    var hops: Int
    var callerNanosecondsPerHop: Double
    var totalNanosecondsPerHop: Double
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
