import ArgumentParser

/// The vending-machine sample, its traces sent live to an OpenTelemetry collector by swift-otel.
///
/// `run` feeds the sample's coins through its `traceHop`-instrumented validator chain with swift-otel
/// bootstrapped, so every coin becomes an `insert coin` span with the chain's command span inside it and a span
/// per validator; `bench` measures what that costs per hop beside the untraced chain and a trace log.
@main
struct VendingMachineOTel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "VendingMachineOTel",
        abstract: "The vending-machine sample with its chain traces exported live over OTLP/HTTP by swift-otel.",
        discussion: """
            The collector's address comes from the standard OpenTelemetry environment variables, read by swift-otel: \
            OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318), OTEL_EXPORTER_OTLP_PROTOCOL \
            (http/protobuf or http/json), OTEL_BSP_* for the batch span processor.
            """,
        subcommands: [RunMachine.self, LiveExportBenchmark.self],
        defaultSubcommand: RunMachine.self
    )
}
