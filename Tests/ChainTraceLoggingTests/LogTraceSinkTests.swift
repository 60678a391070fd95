import ChainTrace
import ChainTraceLogging
import ChainTraceTestSupport
import Foundation
import Logging
import Testing

/// A `LogHandler` that keeps what it is given.
final class CapturingLogHandler: LogHandler, @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`.
    struct Entry {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let lock = NSLock()
    private var stored: [Entry] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var entries: [Entry] { lock.withLock { stored } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock {
            stored.append(Entry(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
        }
    }
}

@Suite("swift-log lines")
struct LogTraceSinkTests {
    func logger(_ handler: CapturingLogHandler) -> Logger { Logger(label: "test") { _ in handler } }

    @Test func oneLinePerTraceWithPathOutcomeAndMetadata() throws {
        let handler = CapturingLogHandler()
        let chain = try makeSinkTestChain(recorder: Recorder(sink: LogTraceSink(logger: logger(handler), level: .info)))
        _ = try chain.send("quarter")
        let entries = handler.entries
        #expect(entries.count == 1)
        #expect(entries[0].level == .info)
        #expect(entries[0].message.hasPrefix("vending String: Counter → Penny → Quarter (accepted by Quarter) in "))
        #expect(entries[0].metadata["chaintrace.chain"] == "vending")
        #expect(entries[0].metadata["chaintrace.outcome"] == "accepted by Quarter")
        #expect(entries[0].metadata["chaintrace.duration_ns"] != nil)
    }

    @Test func oneLinePerHopWithHandlerDecisionAndDurations() throws {
        let handler = CapturingLogHandler()
        let sink = LogTraceSink(logger: logger(handler), level: .debug, granularity: .perHop)
        let chain = try makeSinkTestChain(recorder: Recorder(sink: sink))
        _ = try chain.send("penny")
        let entries = handler.entries
        #expect(
            entries.map(\.message) == [
                "vending String hop 1 Counter: continued", "vending String hop 2 Penny: accepted",
            ]
        )
        #expect(entries[1].metadata["chaintrace.handler"] == "Penny")
        #expect(entries[1].metadata["chaintrace.decision"] == "accepted")
        #expect(entries[1].metadata["chaintrace.position"] == "1")
        for entry in entries {
            let selfTime = UInt64(entry.metadata["chaintrace.self_ns"]?.description ?? "") ?? .max
            let inclusive = UInt64(entry.metadata["chaintrace.inclusive_ns"]?.description ?? "") ?? 0
            #expect(selfTime <= inclusive)
        }
    }

    @Test func aLoggerAboveTheLevelGetsNothing() throws {
        let handler = CapturingLogHandler()
        handler.logLevel = .warning
        let chain = try makeSinkTestChain(
            recorder: Recorder(sink: LogTraceSink(logger: logger(handler), level: .debug))
        )
        _ = try chain.send("penny")
        #expect(handler.entries.isEmpty)
    }
}
