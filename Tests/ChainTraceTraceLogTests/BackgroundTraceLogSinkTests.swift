import ChainTrace
import ChainTraceFiles
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// The trace log sink's background writer: traces from many threads all reach the file, in every format, with and
/// without rotation; a full queue drops (counted on the sink and recorded in the log) or blocks, as chosen;
/// `flush()` and the timer put traces in the file; and a writer killed with SIGKILL leaves every trace it had
/// flushed readable.
@Suite("Trace log sink: the background writer", .tags(.concurrent))
struct BackgroundTraceLogSinkTests {
    static func path(_ name: String) -> String {
        TestFiles.directory.appendingPathComponent("\(name)-\(UUID()).jsonl").path
    }

    static func trace(_ number: Int, thread: Int = 0) -> Trace {
        let hops = (0..<(number % 7)).map { position in
            Hop(
                handler: "H\(position)",
                position: position,
                decision: .passed,
                startOffset: UInt64(position * 10),
                inclusiveDuration: 100,
                selfDuration: 10
            )
        }
        return Trace(
            id: UInt64(thread << 32 | number),
            commandKind: "K\(number % 3)",
            commandID: "t\(thread)-\(number)",
            entry: "H0",
            chain: "c",
            startTime: Int64(number),
            hops: hops,
            outcome: .fellOffTheEnd,
            duration: UInt64(number)
        )
    }

    @Test(
        arguments: [(TraceLogSink.Format.compact, nil), (.jsonLines, nil), (.compact, 20_000), (.jsonLines, 50_000)]
            as [(TraceLogSink.Format, Int?)]
    )
    func tracesFromManyThreadsAllReachTheLog(format: TraceLogSink.Format, rotation: Int?) throws {
        let directory = TestFiles.directory.appendingPathComponent("threads-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var options = TraceLogSink.Options()
        options.format = format
        options.rotationBytes = rotation
        options.whenBehind = .block
        options.queueCapacity = 64
        let sink = try TraceLogSink(path: directory.appendingPathComponent("traces.jsonl").path, options: options)
        let perThread = 3_000
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for number in 0..<perThread { sink.record(Self.trace(number, thread: thread)) }
        }
        try sink.close()
        #expect(sink.droppedCount == 0)
        let reader = try TraceLogReader(path: directory.path)
        let read = try reader.readAll().traces
        let expected = (0..<4).flatMap { thread in (0..<perThread).map { Self.trace($0, thread: thread) } }
        #expect(read.count == expected.count)
        #expect(Set(read) == Set(expected))
        // Each thread's traces keep their order.
        for thread in 0..<4 {
            let mine = read.filter { $0.id >> 32 == UInt64(thread) }.map(\.startTime)
            #expect(mine == mine.sorted())
        }
        if let rotation {
            #expect(sink.files.count > 1)
            #expect(reader.files == sink.files)
            for file in sink.files.dropLast() {
                let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
                #expect(size >= rotation && size < rotation + 4_096, "\(file): \(size) bytes")
            }
            // Every file is a whole log.
            for file in sink.files { _ = try TraceLogReader.readAll(path: file) }
        } else {
            #expect(sink.files.count == 1)
        }
    }

    @Test(arguments: [TraceLogSink.Format.compact, .jsonLines])
    func aFullQueueDropsAndTheLogSaysHowMany(format: TraceLogSink.Format) throws {
        let path = Self.path("drop")
        var options = TraceLogSink.Options()
        options.format = format
        options.queueCapacity = 16
        let sink = try TraceLogSink(path: path, options: options)
        sink.withWriterPaused {
            for number in 0..<100 { sink.record(Self.trace(number)) }
        }
        try sink.flush()  // the writer has made room again
        for number in 100..<110 { sink.record(Self.trace(number)) }
        try sink.close()
        // The queue held 16 while the writer was held: the other 84 of the first 100 were dropped.
        #expect(sink.droppedCount == 84)
        let reader = try TraceLogReader(path: path)
        let read = try reader.readAll().traces
        #expect(read == (0..<16).map { Self.trace($0) } + (100..<110).map { Self.trace($0) })
        #expect(reader.droppedTraces == 84)
    }

    /// A full queue blocks the recording thread until the writer has room, losing nothing; and the thread sleeps
    /// meanwhile — spinning, it took a core from the writer and from any other busy thread of the process (a
    /// replay's reading thread).
    @Test func aFullQueueBlocksWhenAskedWithoutSpinningAndLosesNothing() throws {
        let path = Self.path("block")
        var options = TraceLogSink.Options()
        options.queueCapacity = 8
        options.whenBehind = .block
        let sink = try TraceLogSink(path: path, options: options)
        let recorded = LockedCount()
        let spent = LockedCount()
        let done = DispatchSemaphore(value: 0)
        sink.withWriterPaused {
            Thread.detachNewThread {
                let start = Self.threadCPUNanoseconds()
                for number in 0..<50 {
                    sink.record(Self.trace(number))
                    recorded.add()
                }
                spent.add(Int(Self.threadCPUNanoseconds() - start))
                done.signal()
            }
            // The recording thread fills its queue and waits: it cannot get past the queue's size while the writer
            // is held — half a second, which a spinning thread spends mostly on the CPU, a waiting one not.
            Thread.sleep(forTimeInterval: 0.5)
            #expect(recorded.value <= 9)
        }
        done.wait()
        try sink.close()
        #expect(spent.value < 150_000_000, "the blocked thread spent \(spent.value / 1_000_000) ms of CPU time")
        #expect(sink.droppedCount == 0)
        #expect(try TraceLogReader.readAll(path: path).traces == (0..<50).map { Self.trace($0) })
    }

    /// The CPU time the calling thread has used.
    static func threadCPUNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    @Test func flushPutsEveryTraceRecordedBeforeItInTheFile() throws {
        let path = Self.path("flush")
        var options = TraceLogSink.Options()
        options.flushInterval = .seconds(3_600)
        let sink = try TraceLogSink(path: path, options: options)
        for round in 0..<5 {
            for number in (round * 100)..<(round * 100 + 100) { sink.record(Self.trace(number)) }
            try sink.flush()
            #expect(try TraceLogReader.readAll(path: path).traces == (0..<(round * 100 + 100)).map { Self.trace($0) })
        }
        try sink.close()
    }

    /// A writer with nothing to do sleeps longer and longer (`IdleBackoff`): about a dozen passes in half a second,
    /// where it made one a millisecond — each waking the process, about 2.4% of a core on this VM.
    @Test func anIdleWriterWakesRarely() throws {
        let sink = try TraceLogSink(path: Self.path("idle"))
        sink.record(Self.trace(1))
        try sink.flush()
        let before = sink.writerPassCount
        Thread.sleep(forTimeInterval: 0.5)
        let passes = sink.writerPassCount - before
        #expect(passes <= 40, "\(passes) passes in half a second")
        try sink.close()
        #expect(try TraceLogReader.readAll(path: sink.path).traces == [Self.trace(1)])
    }

    /// A recording thread wakes the writer once its queue is half full — the writer may be in a long idle sleep —
    /// once on the way up to full, not at every trace; and nothing is lost.
    @Test func aHalfFullQueueWakesTheWriterOnce() throws {
        let path = Self.path("half")
        var options = TraceLogSink.Options()
        options.queueCapacity = 64
        let sink = try TraceLogSink(path: path, options: options)
        sink.withWriterPaused {
            let before = sink.writerWakeCount
            for number in 0..<31 { sink.record(Self.trace(number)) }
            #expect(sink.writerWakeCount == before)
            sink.record(Self.trace(31))
            #expect(sink.writerWakeCount == before + 1)
            for number in 32..<64 { sink.record(Self.trace(number)) }
            #expect(sink.writerWakeCount == before + 1)
        }
        try sink.close()
        #expect(sink.droppedCount == 0)
        #expect(try TraceLogReader.readAll(path: path).traces == (0..<64).map { Self.trace($0) })
    }

    @Test func theTimerWritesWithoutAFlush() throws {
        let path = Self.path("timer")
        var options = TraceLogSink.Options()
        options.flushInterval = .milliseconds(20)
        let sink = try TraceLogSink(path: path, options: options)
        sink.record(Self.trace(1))
        // Not a timing assertion: the trace must arrive eventually, without flush() or close().
        var read: [Trace] = []
        for _ in 0..<500 where read.isEmpty {
            Thread.sleep(forTimeInterval: 0.01)
            read = try TraceLogReader.readAll(path: path).traces
        }
        #expect(read == [Self.trace(1)])
        try sink.close()
    }

    @Test(arguments: ["compact", "jsonLines"])
    func aWriterKilledMidRunLeavesEveryFlushedTraceReadable(format: String) throws {
        let path = Self.path("killed")
        let probe = BuiltProduct(name: "chaintrace-log-kill-probe")
        let url = try #require(probe.url, "chaintrace-log-kill-probe was not built")
        let process = Process()
        process.executableURL = url
        process.arguments = [path, format]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var flushed = 0
        var pending = ""
        let handle = output.fileHandleForReading
        while flushed < 20_000 {
            let data = handle.availableData
            if data.isEmpty { break }
            pending += String(decoding: data, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline]
                if line.hasPrefix("flushed "), let count = Int(line.dropFirst(8)) { flushed = count }
                pending = String(pending[pending.index(after: newline)...])
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(flushed >= 20_000)
        let reader = try TraceLogReader(path: path)
        let read = try reader.readAll().traces
        // Every trace flushed before the kill is there, in order, and nothing but whole traces.
        #expect(read.count >= flushed)
        #expect(read.enumerated().allSatisfy { $0.element.payload == .integer(Int64($0.offset)) })
        if let torn = reader.tornTail { #expect(torn.byteCount > 0) }
    }
}

/// A counter several threads add to.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ amount: Int = 1) { lock.withLock { count += amount } }
    var value: Int { lock.withLock { count } }
}
