import ChainTrace
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
        case plain(Plain), encoded(Encoded), described(Described), carrying(Carrying)
    }

    static func expected(_ sent: Sent, payloads: Bool) -> (kind: String, id: String?, payload: JSONValue?) {
        switch sent {
        case .plain: ("Plain", nil, nil)
        case .encoded(let command):
            ("Encoded", nil, payloads ? ["value": .integer(Int64(command.value)), "label": .string(command.label)] : nil)
        case .described(let command):
            (command.commandKind, command.commandID, payloads ? ["value": .integer(Int64(command.value)), "label": .string(command.label)] : nil)
        case .carrying(let command): ("Carrying", nil, payloads ? command.commandPayload : nil)
        }
    }

    static func send<Command: Sendable>(_ command: Command, instrumented: Bool, payloads: Bool) throws -> Trace? {
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink, capturesPayloads: payloads)
        if instrumented {
            ChainTracing.withRecorder(recorder) { _ = traceHop("Only", command: command, chain: "described") { 1 } }
        } else {
            let chain = try Chain<Command, Int>("described", handlers: [Handler("Only") { _ in .accept(1) }], recorder: recorder)
            _ = try chain.send(command)
        }
        return sink.traces.first
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func kindIDAndPayloadAreWhatTheCommandSays(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let value = Int.random(in: -1_000...1_000, using: &random)
        let label = random.hostileName(maximumLength: 6)
        let sent: Sent = switch Int.random(in: 0..<4, using: &random) {
        case 0: .plain(Plain(value: value))
        case 1: .encoded(Encoded(value: value, label: label))
        case 2: .described(Described(value: value, label: label))
        default: .carrying(Carrying(value: value))
        }
        let payloads = random.chance(0.5)
        let instrumented = random.chance(0.5)
        let trace: Trace? = switch sent {
        case .plain(let command): try Self.send(command, instrumented: instrumented, payloads: payloads)
        case .encoded(let command): try Self.send(command, instrumented: instrumented, payloads: payloads)
        case .described(let command): try Self.send(command, instrumented: instrumented, payloads: payloads)
        case .carrying(let command): try Self.send(command, instrumented: instrumented, payloads: payloads)
        }
        let want = Self.expected(sent, payloads: payloads)
        #expect(trace?.commandKind == want.kind, "seed \(seed): \(sent)")
        #expect(trace?.commandID == want.id, "seed \(seed): \(sent)")
        #expect(trace?.payload == want.payload, "seed \(seed): \(sent), payloads \(payloads): \(String(describing: trace?.payload))")
    }
}
