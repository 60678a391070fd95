import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A redacted payload is what the hook leaves, on every path a payload takes into a trace — a `Chain` of a
/// `Sendable` command into a trace log (whose writer would otherwise encode it later, as text), an instrumented
/// hop, a `TracedCommand`'s own payload, an async chain — and nothing the hook removed reaches a log's bytes.
@Suite("Redacted payloads")
struct RedactedPayloadTests {
    struct SignUp: Codable, Sendable {
        var username: String
        var password: String
        var email: String
    }

    struct OwnPayload: TracedCommand {
        var secret: String
        var commandPayload: JSONValue? { ["secret": .string(secret), "kept": 1] }
    }

    static let redact: @Sendable (inout JSONValue) -> Void = { payload in
        payload["password"] = nil
        payload["secret"] = nil
        if payload["email"] != nil { payload["email"] = "<redacted>" }
    }

    static func secret(_ random: inout SeededGenerator) -> String { "s3cret-\(random.next() % 1_000_000)" }

    @Test(arguments: SeededGenerator.seeds(8))
    func everyPathCarriesWhatTheHookLeaves(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let secrets = (0..<4).map { _ in Self.secret(&random) }
        let path = TestFiles.directory.appendingPathComponent("redacted-\(seed)-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = TraceLogSink.Options()
        options.format = random.pick([.compact, .jsonLines])
        options.writesInBackground = random.chance(0.5)
        let log = try TraceLogSink(path: path, options: options)
        let memory = InMemoryTraceSink()
        let recorder = Recorder(sink: FanOutTraceSink([memory, log]), payloads: .captured(redacting: Self.redact))
        let form = SignUp(username: "ada", password: secrets[0], email: "ada@example.com")

        let chain = try Chain<SignUp, Int>(
            "sign-up",
            handlers: [Handler("Take") { _ in .accept(1) }],
            recorder: recorder
        )
        _ = try chain.send(form)
        let asyncChain = try AsyncChain<SignUp, Int>(
            "sign-up-async",
            handlers: [AsyncHandler("Take") { _ in .accept(1) }],
            recorder: recorder
        )
        _ = try await asyncChain.send(SignUp(username: "bo", password: secrets[1], email: "bo@example.com"))
        ChainTracing.withRecorder(recorder) {
            _ = traceHop(
                "Take",
                command: SignUp(username: "cy", password: secrets[2], email: "cy@example.com"),
                chain: "hops"
            ) { 1 }
            _ = traceHop("Own", command: OwnPayload(secret: secrets[3]), chain: "own") { 1 }
        }
        try log.close()

        let expected: [JSONValue] = [
            ["username": "ada", "email": "<redacted>"], ["username": "bo", "email": "<redacted>"],
            ["username": "cy", "email": "<redacted>"], ["kept": 1],
        ]
        #expect(memory.traces.map(\.payload) == expected, "seed \(seed)")
        #expect(try TraceLogReader.readAll(path: path).traces.map(\.payload) == expected, "seed \(seed)")
        let bytes = try String(contentsOfFile: path, encoding: .utf8)
        for secret in secrets { #expect(!bytes.contains(secret), "seed \(seed): \(secret) reached the log") }
        #expect(!bytes.contains("example.com"), "seed \(seed)")
    }

    @Test func withoutPayloadsNothingOfTheCommandButItsKindReachesTheLog() throws {
        let path = TestFiles.directory.appendingPathComponent("no-payloads-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try TraceLogSink(path: path)
        let chain = try Chain<SignUp, Int>(
            "sign-up",
            handlers: [Handler("Take") { _ in .accept(1) }],
            recorder: Recorder(sink: log)
        )
        _ = try chain.send(SignUp(username: "ada", password: "hunter2", email: "ada@example.com"))
        try log.close()
        let bytes = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!bytes.contains("hunter2") && !bytes.contains("ada@example.com") && bytes.contains("SignUp"))
    }
}
