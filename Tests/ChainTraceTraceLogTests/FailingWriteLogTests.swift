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
#elseif canImport(Musl)
    import Musl
#endif

/// A trace log written to a disk that fills up and frees again, generated: writes that fail outright or after part of
/// their bytes, in runs, in both formats, rotating or not, at any buffer size, with chain changes, dropped-trace
/// records and flushes between the traces. Whatever failed, the log reads back to its end with no error and no torn
/// line; the traces it holds are those recorded, in order, less the lost ones; every lost trace is counted — in the
/// log as dropped and in the sink's `droppedCount` — once a write works again; no chain change is lost; no file is
/// empty. Before, a write cut short left half a line that the next write ran on from (a line no reader can parse,
/// halfway down the log: 77 of 80 generated cases failed to read back), a compact log went on naming hops by names
/// whose declaration was lost, a rotated file could begin without its header (`expected a trace log header …,
/// found an array`), and a full disk started an empty file a trace. (Cutting the failed bytes off is not enough on
/// its own: the file's offset must go back too, or the next write leaves a run of NUL bytes before it.)
@Suite("Trace logs on a disk that fills up")
struct FailingWriteLogTests {
    /// Stands in for the disk: writes all, or — while "full" — nothing or a prefix of the bytes, then `ENOSPC`.
    final class FillingDisk: @unchecked Sendable {
        private let lock = NSLock()
        private var random: SeededGenerator
        private var full = false
        private var isHealthy = true
        private(set) var failures = 0

        /// Whether writes all go through. Set by the test while the sink's writer thread may be writing: under the
        /// lock, as everything here (set without it, ThreadSanitizer reported the race).
        var healthy: Bool {
            get { lock.withLock { isHealthy } }
            set { lock.withLock { isHealthy = newValue } }
        }

        init(seed: UInt64) {
            random = SeededGenerator(seed: seed ^ 0xD15C)
        }

        func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
            let prefix: Int? = lock.withLock {
                if isHealthy { return nil }
                if random.chance(0.25) { full.toggle() }
                guard full else { return nil }
                failures += 1
                return random.chance(0.5) ? 0 : Int.random(in: 0...bytes.count, using: &random)
            }
            guard let prefix else { return FileDescriptor.writeAll(descriptor, bytes) }
            if prefix > 0 {
                _ = FileDescriptor.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<prefix]))
            }
            return ENOSPC
        }
    }

    static func trace(_ number: Int, handlers: Int) -> Trace {
        let hops = (0..<handlers).map { index in
            Hop(
                handler: "H\(index)",
                position: index,
                decision: index == handlers - 1 ? .accepted : .passed,
                inclusiveDuration: UInt64(10 * (handlers - index)),
                selfDuration: 10
            )
        }
        return Trace(
            id: UInt64(number),
            commandKind: "Order",
            commandID: "o\(number)",
            entry: "H0",
            chain: "orders",
            hops: hops,
            outcome: .accepted(by: "H\(handlers - 1)"),
            duration: UInt64(10 * handlers)
        )
    }

    @Test("the log reads back whole, every loss counted", arguments: SeededGenerator.seeds(80))
    func theLogSurvivesFailedWrites(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("filling-disk")
        let path = directory.appendingPathComponent("traces.jsonl").path
        var options = TraceLogSink.Options()
        options.format = random.pick([.compact, .jsonLines])
        options.writesInBackground = random.chance(0.5)
        options.bufferSize = random.pick([0, 100, 600, 4_000])
        options.rotationBytes = random.pick([nil, 1, 300, 2_000])
        // Sometimes continued from a log an earlier run wrote, in either format.
        var sent: [String] = []
        var earlierFiles: [String] = []
        let appending = random.chance(0.3)
        if appending {
            var earlier = options
            earlier.format = random.pick([.compact, .jsonLines])
            let first = try TraceLogSink(path: path, options: earlier)
            for number in 0..<3 {
                first.record(Self.trace(1_000 + number, handlers: 2))
                sent.append("o\(1_000 + number)")
            }
            try first.close()
            earlierFiles = first.files
        }
        let disk = FillingDisk(seed: seed)
        // A log that cannot write its first header is not made at all (`init` throws): the disk fills after that.
        let sink = try TraceLogSink(path: path, appending: appending, options: options, writeBytes: disk.write)
        disk.healthy = false
        let context =
            "seed \(seed): \(options.format), background \(options.writesInBackground), buffer \(options.bufferSize), rotation \(String(describing: options.rotationBytes))"

        var edits: [String] = []
        for number in 0..<Int.random(in: 10...120, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                let edit = ChainEdit(chain: "orders", version: edits.count + 2, kind: .insert, handler: "Late\(number)")
                sink.record(edit)
                edits.append(edit.handler)
            case 1:
                try? sink.flush()
            default:
                break
            }
            // Names new to the log now and then, so that a compact log declares names in every stretch.
            sink.record(Self.trace(number, handlers: 1 + number % (random.chance(0.2) ? 9 : 3)))
            sent.append("o\(number)")
        }
        // The disk has room again: what was lost is recorded as the log closes.
        disk.healthy = true
        try? sink.close()

        let files = earlierFiles.filter { !sink.files.contains($0) } + sink.files
        let reader = try TraceLogReader(paths: files)
        var read: [String] = []
        while let trace = try reader.next() { read.append(trace.commandID ?? "?") }
        #expect(reader.tornTails.isEmpty, "\(context): \(reader.tornTails)")
        #expect(Self.isSubsequence(read, of: sent), "\(context): read \(read) of \(sent)")
        #expect(read.count + reader.droppedTraces == sent.count, "\(context): \(disk.failures) failed writes")
        #expect(sink.droppedCount == sent.count - read.count, "\(context)")
        #expect(reader.chainEdits.map(\.handler) == edits, "\(context)")
        for file in files {
            let bytes = FileManager.default.contents(atPath: file).map(Array.init) ?? []
            #expect(!bytes.isEmpty, "\(context): \(file) is empty")
            #expect(!bytes.contains(0), "\(context): \(file) holds a NUL byte")
        }
    }

    /// A full disk when a rotating log is to start its next file: the current file stays current rather than an
    /// empty file being made a trace.
    @Test("a full disk makes no empty file a trace")
    func aFullDiskStartsNoNewFiles() throws {
        let directory = try TestFiles.newDirectory("full-disk")
        let path = directory.appendingPathComponent("traces.jsonl").path
        var options = TraceLogSink.Options()
        options.writesInBackground = false
        options.bufferSize = 0
        options.rotationBytes = 1
        let full = LockedFlag()
        let sink = try TraceLogSink(path: path, options: options) { descriptor, bytes in
            full.value ? ENOSPC : FileDescriptor.writeAll(descriptor, bytes)
        }
        for number in 0..<3 { sink.record(Self.trace(number, handlers: 2)) }
        full.value = true
        for number in 3..<500 { sink.record(Self.trace(number, handlers: 2)) }
        #expect(sink.files.count <= 5, "\(sink.files.count) files")
        full.value = false
        sink.record(Self.trace(500, handlers: 2))
        try? sink.close()
        let log = try TraceLogReader(paths: sink.files)
        var read: [UInt64] = []
        while let trace = try log.next() { read.append(trace.id) }
        #expect(read.count + log.droppedTraces == 501)
        #expect(read.last == 500)
    }

    final class LockedFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var flag = false
        var value: Bool {
            get { lock.withLock { flag } }
            set { lock.withLock { flag = newValue } }
        }
    }

    static func isSubsequence(_ part: [String], of whole: [String]) -> Bool {
        var index = whole.startIndex
        for element in part {
            guard let found = whole[index...].firstIndex(of: element) else { return false }
            index = found + 1
        }
        return true
    }
}
