import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `Sendable` command sent on a chain or an instrumented hop that records payloads into a compact trace log
/// written in the background, dropping when behind (the default), is kept as it is and encoded by the log's writer
/// (`DeferredPayload`); any other command, or any command for another log, is encoded as it is sent.
/// Differential: the two give the same payloads — in the log, and in memory beside it — on generated values,
/// including those one pass cannot write and those that are not JSON at all. And the encoding really moves: it
/// runs on the writer's thread, once per trace written, never for a trace the log dropped.
@Suite("Payloads encoded by the trace log's writer", .tags(.concurrent))
struct DeferredPayloadTests {
    typealias Script = EncodingScript

    /// A `Sendable` command: its payload is encoded when written.
    struct SentLater: Encodable, Sendable {
        let script: Script
        func encode(to encoder: any Encoder) throws { try script.encode(to: encoder) }
    }

    /// The same command as a class with a mutable property, which is not `Sendable`: encoded as it is sent.
    final class SentNow: Encodable {
        var script: Script
        init(_ script: Script) { self.script = script }
        func encode(to encoder: any Encoder) throws { try script.encode(to: encoder) }
    }

    /// Records `commands` on a `Chain` into a compact log and into memory; the log read back, and memory.
    static func record<Command>(
        _ commands: [Command],
        name: String,
        chain make: (Recorder) throws -> Chain<Command, Int>
    ) throws -> (logged: [JSONValue?], inMemory: [JSONValue?]) {
        let path = TestFiles.directory.appendingPathComponent("deferred-\(name)-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try TraceLogSink(path: path)
        let memory = InMemoryTraceSink()
        let chain = try make(Recorder(sink: FanOutTraceSink([memory, log]), payloads: .captured))
        for command in commands { _ = try chain.send(command) }
        try log.close()
        return (try TraceLogReader.readAll(path: path).traces.map(\.payload), memory.traces.map(\.payload))
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func encodedWhenWrittenIsEncodedWhenSent(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let scripts = (0..<25).map { _ in Script.make(&random, depth: 0) }
        let later = try Self.record(scripts.map(SentLater.init), name: "later-\(seed)") { recorder in
            try Chain<SentLater, Int>("c", handlers: [Handler("Take") { _ in .accept(1) }], recorder: recorder)
        }
        let now = try Self.record(scripts.map(SentNow.init), name: "now-\(seed)") { recorder in
            try Chain<SentNow, Int>("c", handlers: [Handler("Take") { _ in .accept(1) }], recorder: recorder)
        }
        // What a tree encoding gives, or no payload when the value is not JSON.
        let expected = scripts.map { try? JSONValue(encoding: $0) }
        #expect(later.logged == expected, "seed \(seed)")
        #expect(now.logged == expected, "seed \(seed)")
        #expect(later.inMemory == expected, "seed \(seed)")
        #expect(now.inMemory == expected, "seed \(seed)")
    }

    /// The threads encodings ran on, in order.
    final class EncodingThreads: @unchecked Sendable {
        // Every access holds `lock`.
        private var threads: [UInt] = []
        private let lock = NSLock()

        /// The calling thread.
        static var current: UInt {
            #if canImport(Darwin)
                UInt(bitPattern: pthread_self())
            #else
                UInt(pthread_self())
            #endif
        }
        func note() { lock.withLock { threads.append(Self.current) } }
        var all: [UInt] { lock.withLock { threads } }
    }

    struct NotesItsThread: Encodable, Sendable {
        let value: Int
        let threads: EncodingThreads
        func encode(to encoder: any Encoder) throws {
            threads.note()
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    final class NotesItsThreadToo: Encodable {
        var value: Int
        let threads: EncodingThreads
        init(_ value: Int, _ threads: EncodingThreads) { (self.value, self.threads) = (value, threads) }
        func encode(to encoder: any Encoder) throws {
            threads.note()
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    /// The thread of every encoding of `send`'s commands into a fresh compact log, and the payloads logged.
    static func encodings(
        _ name: String,
        options: TraceLogSink.Options = .init(),
        _ send: (Recorder, EncodingThreads) throws -> Void
    ) throws -> (threads: [UInt], payloads: [JSONValue?]) {
        let path = TestFiles.directory.appendingPathComponent("deferred-threads-\(name)-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try TraceLogSink(path: path, options: options)
        let threads = EncodingThreads()
        try send(Recorder(sink: log, payloads: .captured), threads)
        try log.close()
        return (threads.all, try TraceLogReader.readAll(path: path).traces.map(\.payload))
    }

    @Test func aSendableCommandIsEncodedOnTheWritersThreadAndAnyOtherWhereItIsSent() throws {
        let here = EncodingThreads.current
        let handler = Handler<NotesItsThread, Int>("Take") { _ in .accept(1) }
        let sendable = try Self.encodings("chain-sendable") { recorder, threads in
            let chain = try Chain<NotesItsThread, Int>("c", handlers: [handler], recorder: recorder)
            for value in 0..<20 { _ = try chain.send(NotesItsThread(value: value, threads: threads)) }
        }
        #expect(sendable.payloads == (0..<20).map { .integer(Int64($0)) })
        #expect(sendable.threads.count == 20 && !sendable.threads.contains(here))

        let other = try Self.encodings("chain-other") { recorder, threads in
            let chain = try Chain<NotesItsThreadToo, Int>(
                "c",
                handlers: [Handler("Take") { _ in .accept(1) }],
                recorder: recorder
            )
            for value in 0..<20 { _ = try chain.send(NotesItsThreadToo(value, threads)) }
        }
        #expect(other.payloads == (0..<20).map { .integer(Int64($0)) })
        #expect(other.threads.count == 20 && other.threads.allSatisfy { $0 == here })

        // An instrumented hop cannot know its command is `Sendable` (one `traceHop` for every command): it is
        // encoded on the thread that sends it.
        let hops = try Self.encodings("hops") { recorder, threads in
            ChainTracing.withRecorder(recorder) {
                for value in 0..<10 {
                    _ = traceHop("A", command: NotesItsThread(value: value, threads: threads), chain: "deferredpayload")
                    { () -> Int? in
                        traceHop("B", command: NotesItsThread(value: value, threads: threads), chain: "deferredpayload")
                        { 1 }
                    }
                }
            }
        }
        #expect(hops.payloads == (0..<10).map { .integer(Int64($0)) })
        #expect(hops.threads.count == 10 && hops.threads.allSatisfy { $0 == here }, "\(hops.threads)")
    }

    /// A log that blocks when behind, or that its caller writes, is handed every command encoded: when its
    /// writer is the bottleneck, the recording threads share the encoding.
    @Test(arguments: ["block", "caller"])
    func aLogThatBlocksOrIsWrittenByItsCallerIsHandedCommandsEncoded(policy: String) throws {
        let here = EncodingThreads.current
        var options = TraceLogSink.Options()
        if policy == "block" { options.whenBehind = .block } else { options.writesInBackground = false }
        let encoded = try Self.encodings("\(policy)", options: options) { recorder, threads in
            let chain = try Chain<NotesItsThread, Int>(
                "c",
                handlers: [Handler("Take") { _ in .accept(1) }],
                recorder: recorder
            )
            for value in 0..<20 { _ = try chain.send(NotesItsThread(value: value, threads: threads)) }
        }
        #expect(encoded.payloads == (0..<20).map { .integer(Int64($0)) })
        #expect(encoded.threads.count == 20 && encoded.threads.allSatisfy { $0 == here })
    }

    @Test func anAsyncChainDefersASendableCommandToo() async throws {
        let path = TestFiles.directory.appendingPathComponent("deferred-async-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try TraceLogSink(path: path)
        let threads = EncodingThreads()
        let recorder = Recorder(sink: log, payloads: .captured)
        let chain = try AsyncChain<NotesItsThread, Int>(
            "c",
            handlers: [AsyncHandler("Take") { _ in .accept(1) }],
            recorder: recorder
        )
        for value in 0..<5 { _ = try await chain.send(NotesItsThread(value: value, threads: threads)) }
        try log.close()
        #expect(try TraceLogReader.readAll(path: path).traces.map(\.payload) == (0..<5).map { .integer(Int64($0)) })
        // Every encoding ran on the writer's one thread; the sending task only copied the commands.
        #expect(threads.all.count == 5 && Set(threads.all).count == 1 && !threads.all.contains(EncodingThreads.current))
    }

    /// Counts encodings.
    struct CountsItsEncodings: Encodable, Sendable {
        static let count = LockedCount()
        let value: Int
        func encode(to encoder: any Encoder) throws {
            Self.count.add()
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    @Test func aTraceTheLogDropsIsNeverEncoded() throws {
        let path = TestFiles.directory.appendingPathComponent("deferred-dropped-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = TraceLogSink.Options()
        options.queueCapacity = 16
        let log = try TraceLogSink(path: path, options: options)
        let before = CountsItsEncodings.count.value
        let chain = try Chain<CountsItsEncodings, Int>(
            "c",
            handlers: [Handler("Take") { _ in .accept(1) }],
            recorder: Recorder(sink: log, payloads: .captured)
        )
        // The writer held still: the queue fills and the rest are dropped.
        try log.withWriterPaused {
            for value in 0..<200 { _ = try chain.send(CountsItsEncodings(value: value)) }
        }
        try log.close()
        let written = try TraceLogReader.readAll(path: path).traces
        #expect(log.droppedCount > 0)
        #expect(written.count + log.droppedCount == 200)
        #expect(CountsItsEncodings.count.value - before == written.count)
        #expect(written.map(\.payload) == written.indices.map { .integer(Int64($0)) })
    }
}
