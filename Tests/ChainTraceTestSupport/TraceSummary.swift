import ChainTrace
import ChainTraceJSON

/// What a trace says about its command, apart from its times and id: what a test compares when the same commands
/// were recorded twice (into a sink that keeps everything and into one that recycles, a log read back).
public struct TraceSummary: Equatable, CustomStringConvertible {
    public var path: [String]
    public var decisions: [Decision]
    public var reasons: [String?]
    public var outcome: Outcome
    public var kind: String
    public var payload: JSONValue?
    public var chain: String

    /// The summary of `trace`.
    public init(_ trace: Trace) {
        path = trace.path
        decisions = trace.hops.map(\.decision)
        reasons = trace.hops.map(\.reason)
        outcome = trace.outcome
        kind = trace.commandKind
        payload = trace.payload
        chain = trace.chain
    }

    public var description: String {
        "\(chain) \(kind) \(path) \(decisions) \(reasons) \(outcome) \(payload.map { "\($0)" } ?? "no payload")"
    }
}

/// A command of generated tests that record chains: a number the handlers test, and a note now and then (so that
/// payloads differ in shape).
public struct NumberedCommand: Codable, Sendable {
    public var value: Int
    public var note: String?

    public init(value: Int, note: String? = nil) {
        self.value = value
        self.note = note
    }
}

/// The error a generated handler throws on some numbers.
public struct BrokeOnNumber: Error, CustomStringConvertible {
    public var value: Int

    public init(value: Int) {
        self.value = value
    }

    public var description: String { "broke on \(value)" }
}
