import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// What a trace records about its command, for every kind of command type, generated: a `TracedCommand`'s own
/// kind, id and payload when it gives them; an `Encodable` command's JSON as the payload (only when payloads are
/// captured); the type's name as the kind otherwise; no payload for a command that cannot be encoded — on chains
/// and instrumented handlers alike.
@Suite("What traces record about commands")
struct CommandDescriptionTests {
    struct Plain: Sendable { var value: Int }

    struct Encoded: Encodable, Sendable {
        var value: Int
        var label: String
    }

    struct Described: TracedCommand, Encodable, Sendable {
        var value: Int
        var label: String
        var commandKind: String { "Described.\(label)" }
        var commandID: String? { "id-\(value)" }
    }

    struct Carrying: TracedCommand, Sendable {
        var value: Int
        var commandPayload: JSONValue? { ["carried": .integer(Int64(value))] }
    }

    enum Sent {
        case plain(Plain)
        case encoded(Encoded)
        case described(Described)
        case carrying(Carrying)
    }

    static func expected(_ sent: Sent, payloads: Bool) -> (kind: String, id: String?, payload: JSONValue?) {
        switch sent {
        case .plain: ("Plain", nil, nil)
        case .encoded(let command):
            (
                "Encoded", nil,
                payloads ? ["value": .integer(Int64(command.value)), "label": .string(command.label)] : nil
            )
        case .described(let command):
            (
                command.commandKind, command.commandID,
                payloads ? ["value": .integer(Int64(command.value)), "label": .string(command.label)] : nil
            )
        case .carrying(let command): ("Carrying", nil, payloads ? command.commandPayload : nil)
        }
    }

    /// A command of one of the four kinds, at random.
    static func randomCommand(_ random: inout SeededGenerator) -> Sent {
        let value = Int.random(in: -1_000...1_000, using: &random)
        let label = random.hostileName(maximumLength: 6)
        return switch Int.random(in: 0..<4, using: &random) {
        case 0: .plain(Plain(value: value))
        case 1: .encoded(Encoded(value: value, label: label))
        case 2: .described(Described(value: value, label: label))
        default: .carrying(Carrying(value: value))
        }
    }

    static func send<Command: Sendable>(_ command: Command, instrumented: Bool, payloads: Bool) throws -> Trace? {
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink, payloads: payloads ? .captured : .none)
        if instrumented {
            ChainTracing.withRecorder(recorder) { _ = traceHop("Only", command: command, chain: "described") { 1 } }
        } else {
            let chain = try Chain<Command, Int>(
                "described",
                handlers: [Handler("Only") { _ in .accept(1) }],
                recorder: recorder
            )
            _ = try chain.send(command)
        }
        return sink.traces.first
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func kindIDAndPayloadAreWhatTheCommandSays(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sent = Self.randomCommand(&random)
        let payloads = random.chance(0.5)
        let instrumented = random.chance(0.5)
        let trace: Trace? =
            switch sent {
            case .plain(let command): try Self.send(command, instrumented: instrumented, payloads: payloads)
            case .encoded(let command): try Self.send(command, instrumented: instrumented, payloads: payloads)
            case .described(let command): try Self.send(command, instrumented: instrumented, payloads: payloads)
            case .carrying(let command): try Self.send(command, instrumented: instrumented, payloads: payloads)
            }
        let want = Self.expected(sent, payloads: payloads)
        #expect(trace?.commandKind == want.kind, "seed \(seed): \(sent)")
        #expect(trace?.commandID == want.id, "seed \(seed): \(sent)")
        #expect(
            trace?.payload == want.payload,
            "seed \(seed): \(sent), payloads \(payloads): \(String(describing: trace?.payload))"
        )
    }

    /// Mixed commands one after another on one thread, into a small ring: each trace is made in the storage of
    /// one the ring let go of, and in an instrumented chain's reused trace object. A command with no id, kind or
    /// payload of its own after one with them must not show the earlier command's.
    @Test(arguments: SeededGenerator.seeds(30))
    func recycledTracesDescribeTheirOwnCommands(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let payloads = random.chance(0.5)
        let instrumented = random.chance(0.5)
        let limit = Int.random(in: 1...3, using: &random)
        let ring = InMemoryTraceSink(limit: limit)
        let recorder = Recorder(sink: ring, payloads: payloads ? .captured : .none)
        var sentCommands: [Sent] = []
        for _ in 0..<Int.random(in: 1...40, using: &random) {
            let sent = Self.randomCommand(&random)
            sentCommands.append(sent)
            // One command type for the chain, so that one chain (and one trace object) sees them all.
            if instrumented {
                ChainTracing.withRecorder(recorder) { _ = traceHop("Only", command: sent, chain: "described") { 1 } }
            } else {
                let chain = try Chain<Sent, Int>(
                    "described",
                    handlers: [Handler("Only") { _ in .accept(1) }],
                    recorder: recorder
                )
                _ = try chain.send(sent)
            }
        }
        let kept = ring.traces
        let newest = sentCommands.suffix(limit)
        #expect(kept.count == newest.count, "seed \(seed)")
        for (trace, sent) in zip(kept, newest) {
            let want = Self.expected(sent, payloads: payloads)
            #expect(trace.commandKind == want.kind, "seed \(seed): \(sent)")
            #expect(trace.commandID == want.id, "seed \(seed): \(sent)")
            #expect(trace.payload == want.payload, "seed \(seed): \(sent), payloads \(payloads)")
        }
    }
}

/// Each kind of command, sent as one type: its kind, id and payload are the command's own.
extension CommandDescriptionTests.Sent: TracedCommand, Encodable, Sendable {
    var commandKind: String {
        switch self {
        case .plain: "Plain"
        case .encoded: "Encoded"
        case .described(let command): command.commandKind
        case .carrying: "Carrying"
        }
    }

    var commandID: String? {
        if case .described(let command) = self { return command.commandID }
        return nil
    }

    var commandPayload: JSONValue? {
        switch self {
        case .carrying(let command): command.commandPayload
        // Encoded as the command inside would be: through `encode(to:)` below.
        default: nil
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .plain: throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "not encodable"))
        case .encoded(let command): try command.encode(to: encoder)
        case .described(let command): try command.encode(to: encoder)
        case .carrying:
            throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "carries its own"))
        }
    }
}
