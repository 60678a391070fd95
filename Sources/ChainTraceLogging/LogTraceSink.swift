public import ChainTrace
import ChainTraceJSON
public import Logging

/// Writes recorded traces through swift-log: one line per trace (its path and outcome) or one per hop, at a
/// chosen level, with the facts as metadata so any `LogHandler` can index them.
///
/// ```swift
/// chain.recorder = Recorder(sink: LogTraceSink(logger: Logger(label: "app.chain"), level: .debug))
/// ```
///
/// Metadata keys: `chaintrace.chain`, `chaintrace.command.kind`, `chaintrace.command.id`, `chaintrace.outcome`,
/// `chaintrace.duration_ns`; per hop also `chaintrace.handler`, `chaintrace.position`, `chaintrace.decision`,
/// `chaintrace.self_ns`, `chaintrace.inclusive_ns`, `chaintrace.reason`, `chaintrace.registry`. A logger whose level
/// is above `level` costs one comparison per trace.
public final class LogTraceSink: TraceSink {
    /// How many lines a trace makes.
    public enum Granularity: Sendable {
        /// One line per trace: `coins Coin c01: Penny → Dime (accepted by Dime) in 12µs`.
        case perTrace
        /// One line per hop: `coins Coin c01 hop 2 Dime: accepted`.
        case perHop
    }

    private let logger: Logger
    private let level: Logger.Level
    private let granularity: Granularity

    /// Logs through `logger` at `level`.
    public init(logger: Logger, level: Logger.Level = .debug, granularity: Granularity = .perTrace) {
        self.logger = logger
        self.level = level
        self.granularity = granularity
    }

    public func record(_ trace: Trace) {
        guard logger.logLevel <= level else { return }
        // Log lines are read by people, on terminals too: names from data are shown escaped (VisibleText).
        let shown = VisibleText.escaped
        var common: Logger.Metadata = [
            "chaintrace.chain": "\(shown(trace.chain))",
            "chaintrace.command.kind": "\(shown(trace.commandKind))",
            "chaintrace.outcome": "\(shown("\(trace.outcome)"))",
            "chaintrace.duration_ns": "\(trace.duration)",
        ]
        if let id = trace.commandID { common["chaintrace.command.id"] = "\(shown(id))" }
        let name = shown("\(trace.chain) \(trace.commandKind)" + (trace.commandID.map { " \($0)" } ?? ""))
        switch granularity {
        case .perTrace:
            let path = trace.path.isEmpty ? "no handler" : trace.path.map(shown).joined(separator: " → ")
            logger.log(
                level: level,
                "\(name): \(path) (\(shown("\(trace.outcome)"))) in \(trace.duration)ns",
                metadata: common
            )
        case .perHop:
            for hop in trace.hops {
                var metadata = common
                metadata["chaintrace.handler"] = "\(shown(hop.handler))"
                metadata["chaintrace.position"] = "\(hop.position)"
                metadata["chaintrace.decision"] = "\(hop.decision.rawValue)"
                metadata["chaintrace.self_ns"] = "\(hop.selfDuration)"
                metadata["chaintrace.inclusive_ns"] = "\(hop.inclusiveDuration)"
                if let reason = hop.reason { metadata["chaintrace.reason"] = "\(shown(reason))" }
                if let registry = hop.registry { metadata["chaintrace.registry"] = "\(shown(registry))" }
                logger.log(
                    level: level,
                    "\(name) hop \(hop.position + 1) \(shown(hop.handler)): \(hop.decision.rawValue)",
                    metadata: metadata
                )
            }
        }
    }
}
