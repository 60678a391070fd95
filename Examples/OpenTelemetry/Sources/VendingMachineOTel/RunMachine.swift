import ArgumentParser
import ChainTrace
import ChainTraceDistributedTracing
import ChainTraceTraceLog
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// `VendingMachineOTel run`: the sample's coins through its validator chain, spans exported live.
struct RunMachine: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Feed coins through the validator chain with swift-otel exporting every hop as a span."
    )

    @Argument(help: "Coins, one JSON object a line: {\"id\":\"c1\",\"diameter\":24.3,\"weight\":5.7}.")
    var coins = "Samples/VendingMachine/coins.jsonl"

    @Option(help: "Also write the traces to this trace log, to compare with what the collector received.")
    var traceOut: String?

    @Option(help: "Send the coin stream this many times.")
    var `repeat` = 1

    @Option(help: "How hops appear: spans (a span each) or events (events on the command's span).")
    var hops: HopStyleArgument = .spans

    @Option(
        help:
            "Which thread makes the spans: background (the sink's own; the recording thread only hands traces over) or recording-thread."
    )
    var delivery: DeliveryArgument = .background

    @Option(help: "The quarter validator's extra sensor time per coin, in nanoseconds (the sample's slow handler).")
    var slowSensor: UInt64 = 2_000_000

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() async throws {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "vending-machine"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        // The environment's OTEL_* variables override these, as in any swift-otel app.
        let observability = try OTel.bootstrap(configuration: configuration)
        let machine = try VendingMachineService(
            coins: coins,
            traceLog: traceOut,
            repeats: `repeat`,
            hops: hops.style,
            delivery: delivery.delivery,
            slowSensor: slowSensor
        )
        // The machine runs once and then shuts the group down gracefully: swift-otel's batch span processor
        // exports what it still holds before `run()` returns.
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: observability),
                    .init(
                        service: machine,
                        successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup
                    ),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: Logger(label: "vending-machine")
            )
        )
        try await group.run()
    }
}

/// `--delivery background|recording-thread`.
enum DeliveryArgument: String, ExpressibleByArgument, CaseIterable {
    case background
    case recordingThread = "recording-thread"

    var delivery: SpanTraceSink.Delivery { self == .background ? .background() : .onRecordingThread }
}

/// `--hops spans|events`.
enum HopStyleArgument: String, ExpressibleByArgument, CaseIterable {
    case spans, events

    var style: SpanTraceSink.HopStyle { self == .spans ? .spans : .events }
}

/// Runs the coins through the chain once, each coin inside an `insert coin` span of the app's own, so the
/// chain's spans sit in the trace of the request that caused them.
final class VendingMachineService: Service, Sendable {
    let coins: [InsertedCoin]
    let traceLog: String?
    let repeats: Int
    let hops: SpanTraceSink.HopStyle
    let delivery: SpanTraceSink.Delivery
    let slowSensor: UInt64

    init(
        coins path: String,
        traceLog: String?,
        repeats: Int,
        hops: SpanTraceSink.HopStyle,
        delivery: SpanTraceSink.Delivery,
        slowSensor: UInt64
    ) throws {
        coins = try CoinStream.read(path: path)
        self.traceLog = traceLog
        self.repeats = repeats
        self.hops = hops
        self.delivery = delivery
        self.slowSensor = slowSensor
    }

    func run() async throws {
        // Made after bootstrapping, so the sink sends to swift-otel's tracer.
        let spans = SpanTraceSink(hops: hops, delivery: delivery)
        var sinks: [any TraceSink] = [spans]
        let log = try traceLog.map { try TraceLogSink(path: $0) }
        if let log { sinks.append(log) }
        let machine = makeValidatorChain(slowSensor: slowSensor)
        var cents = 0
        var traces = 0
        ChainTracing.withRecorder(Recorder(sink: FanOutTraceSink(sinks))) {
            for round in 0..<repeats {
                for coin in coins {
                    withSpan("insert coin", ofKind: .server) { span in
                        span.attributes["coin.id"] = coin.id
                        span.attributes["coin.round"] = round
                        let kind = machine.validate(coin)
                        span.attributes["coin.kind"] = kind?.rawValue ?? "rejected"
                        cents += kind?.cents ?? 0
                    }
                    traces += 1
                }
            }
        }
        try log?.close()
        // Background delivery: every span made before the group shuts swift-otel down (which exports what it holds).
        spans.close()
        print(
            "accepted \(cents) cents from \(traces) coins; \(traces - spans.droppedCount) chain traces handed to swift-otel as spans"
                + (traceLog.map { "; trace log: \($0)" } ?? "")
        )
    }
}
