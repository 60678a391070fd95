import ChainTrace
import ChainTraceAnalysis
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Profiling a log in parallel parts gives exactly the profile of reading it front to back — every handler's
/// counts, totals, percentiles and maximum, every link, the commands, chains, dropped traces and torn tail — on
/// generated logs of both versions (compact ones in segments, as the writer writes them), mixed versions, with
/// dropped-trace records and torn ends, cut into parts of every size; and a malformed line is reported exactly
/// as a plain read reports it.
@Suite("Parallel log profiling against a plain read")
struct TraceLogProfilerTests {
    static func log(_ random: inout SeededGenerator) -> (bytes: [UInt8], torn: Bool) {
        let handlers = (0..<Int.random(in: 2...6, using: &random)).map { "H\($0)" }
        var traces: [Trace] = []
        for index in 0..<Int.random(in: 50...600, using: &random) {
            let length = Int.random(in: 1...handlers.count, using: &random)
            let hops = (0..<length).map { position in
                Hop(
                    handler: handlers[position],
                    position: position,
                    decision: position == length - 1 ? random.pick([.accepted, .passed, .failed]) : .passed,
                    startOffset: UInt64(position * 100),
                    inclusiveDuration: UInt64.random(in: 0...20_000, using: &random),
                    selfDuration: random.chance(0.3)
                        ? UInt64.random(in: 0...200, using: &random) : UInt64.random(in: 0...5_000_000, using: &random)
                )
            }
            let last = hops[length - 1]
            let outcome: Outcome =
                last.decision == .accepted
                ? .accepted(by: last.handler)
                : last.decision == .failed ? .failed(at: last.handler, error: "") : .fellOffTheEnd
            traces.append(
                Trace(
                    id: UInt64(index),
                    commandKind: "K",
                    entry: handlers[0],
                    chain: random.pick(["a", "b"]),
                    startTime: Int64(index) * 1000,
                    hops: hops,
                    outcome: outcome,
                    duration: 10
                )
            )
        }
        var bytes: [UInt8] = []
        var encoder = CompactTraceLogEncoder()
        var version = random.chance(0.5) ? 2 : 1
        bytes += (version == 2 ? CompactTraceLogFormat.header : TraceLogFormat.header) + [0x0A]
        for trace in traces {
            if random.chance(0.02) {
                // A new segment, now and then of the other version (a concatenated log).
                if random.chance(0.2) { version = 3 - version }
                bytes += (version == 2 ? CompactTraceLogFormat.header : TraceLogFormat.header) + [0x0A]
                encoder.reset()
            }
            if random.chance(0.02) {
                bytes += Array(#"{"dropped":\#(Int.random(in: 1...9, using: &random))}"#.utf8) + [0x0A]
            }
            if random.chance(0.02) {
                let edit = ChainEdit(
                    chain: "a",
                    version: Int(trace.id),
                    kind: random.pick(ChainEdit.Kind.allCases),
                    handler: "H\(trace.id)",
                    detail: random.chance(0.5) ? "first" : nil,
                    time: Int64(trace.id)
                )
                bytes +=
                    Array(
                        #"{"change":"\#(edit.kind.rawValue)","chain":"a","handler":"\#(edit.handler)","timeNs":\#(edit.time),"version":\#(edit.version)\#(edit.detail.map { #","detail":"\#($0)""# } ?? "")}"#
                            .utf8
                    ) + [0x0A]
            }
            if version == 2 {
                encoder.encode(trace, into: &bytes)
            } else {
                bytes += TraceLogFormat.encode(trace) + [0x0A]
            }
        }
        let torn = random.chance(0.3)
        if torn { bytes += Array(#"[1,2,3,"#.utf8) }
        return (bytes, torn)
    }

    /// A version 1 log whose traces name handlers and registries from a growing pool — past the 4096 distinct
    /// names the fast path finds by their bytes, some escaped, several chains sharing some of them — reads as
    /// the same traces on the fast path as on the general one, and profiles the same.
    @Test(arguments: SeededGenerator.seeds(6))
    func versionOneNamesFoundByTheirBytesReadAsTheGeneralPathReadsThem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var pool = ["A", "B", #"q"uote"#, "é"]
        var bytes = TraceLogFormat.header + [0x0A]
        for index in 0..<1_500 {
            // Three new names a trace on average, so the pool passes 4096 part way through.
            for _ in 0..<Int.random(in: 0...6, using: &random) { pool.append("H\(pool.count)") }
            let length = Int.random(in: 1...5, using: &random)
            let names = (0..<length).map { _ in
                random.chance(0.5) ? pool[Int.random(in: 0..<min(8, pool.count), using: &random)] : random.pick(pool)
            }
            let hops = (0..<length).map { position in
                Hop(
                    handler: names[position],
                    position: position,
                    decision: position == length - 1 ? random.pick([.accepted, .passed, .failed]) : .passed,
                    reason: random.chance(0.2) ? "why \(position)" : nil,
                    registry: random.chance(0.2) ? random.pick(pool) : nil,
                    startOffset: UInt64(position * 10),
                    inclusiveDuration: UInt64.random(in: 0...9_000, using: &random),
                    selfDuration: UInt64.random(in: 0...9_000, using: &random)
                )
            }
            let last = hops[length - 1]
            let outcome: Outcome =
                last.decision == .accepted
                ? .accepted(by: last.handler)
                : last.decision == .failed ? .failed(at: last.handler, error: last.reason ?? "") : .fellOffTheEnd
            let trace = Trace(
                id: UInt64(index),
                commandKind: "K",
                entry: random.chance(0.9) ? names[0] : random.pick(pool),
                chain: random.pick(["a", "b", "c"]),
                startTime: Int64(index),
                hops: hops,
                outcome: outcome,
                duration: 10
            )
            bytes += TraceLogFormat.encode(trace) + [0x0A]
        }
        #expect(pool.count > 4_096)
        let fast = TraceLogReader(bytes: bytes, name: "fast.jsonl")
        let general = TraceLogReader(bytes: bytes, name: "general.jsonl")
        general.usesFastPath = false
        let fastTraces = try fast.readAll().traces
        let generalTraces = try general.readAll().traces
        #expect(fastTraces.count == 1_500)
        #expect(fastTraces == generalTraces, "seed \(seed)")
        #expect(fastTraces.map(\.path) == generalTraces.map(\.path), "seed \(seed)")
        #expect(fastTraces.map(\.outcome) == generalTraces.map(\.outcome), "seed \(seed)")
        #expect(
            fastTraces.map { $0.hops.map(\.registry) } == generalTraces.map { $0.hops.map(\.registry) },
            "seed \(seed)"
        )
        #expect(fastTraces.map(\.entry) == generalTraces.map(\.entry), "seed \(seed)")
        let fastProfile = try ChainProfile(reading: TraceLogReader(bytes: bytes, name: "fast.jsonl"))
        #expect(Self.same(fastProfile, ChainProfile(generalTraces)), "seed \(seed)")
    }

    static func same(_ left: ChainProfile, _ right: ChainProfile) -> Bool {
        guard left.commands == right.commands, left.accepted == right.accepted, left.failed == right.failed,
            left.fellOffTheEnd == right.fellOffTheEnd, left.chains == right.chains, left.edges == right.edges,
            left.totalNanoseconds == right.totalNanoseconds,
            left.handlers.map(\.handler) == right.handlers.map(\.handler)
        else { return false }
        for (a, b) in zip(left.handlers, right.handlers) {
            guard a.seen == b.seen, a.accepted == b.accepted, a.passed == b.passed, a.failed == b.failed,
                a.continued == b.continued, a.totalSelfNanoseconds == b.totalSelfNanoseconds,
                a.totalInclusiveNanoseconds == b.totalInclusiveNanoseconds, a.maximumSelfTime == b.maximumSelfTime
            else { return false }
            for percentile in [1.0, 50, 90, 95, 99, 99.9, 100]
            where a.selfTime(atPercentile: percentile) != b.selfTime(atPercentile: percentile) {
                return false
            }
        }
        return true
    }

    /// `bytes` in a new file of the tests' directory; its path.
    static func written(_ bytes: [UInt8]) throws -> String {
        let path = TestFiles.directory.appendingPathComponent("profiled-\(UUID()).jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A profiler of 1–4 threads cutting a log of `logBytes` into parts of any size up to a third of it.
    static func anyProfiler(_ random: inout SeededGenerator, logBytes: Int) -> TraceLogProfiler {
        TraceLogProfiler(
            threads: Int.random(in: 1...4, using: &random),
            partBytes: Int.random(in: 1...max(2, logBytes / 3), using: &random)
        )
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func partsReadInParallelGiveThePlainProfile(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (bytes, torn) = Self.log(&random)
        let path = try Self.written(bytes)
        let plain = try TraceLogReader(path: path, payloads: false)
        let expected = try ChainProfile(reading: plain)
        for _ in 0..<4 {
            let profiler = Self.anyProfiler(&random, logBytes: bytes.count)
            let result = try profiler.profile(paths: [path])
            #expect(
                Self.same(result.profile, expected),
                "seed \(seed), \(profiler.threads) threads, parts of \(profiler.partBytes) bytes"
            )
            #expect(result.droppedTraces == plain.droppedTraces, "seed \(seed)")
            #expect(result.chainEdits == plain.chainEdits, "seed \(seed)")
            #expect(
                result.tornTails.map(\.line) == (torn ? [plain.tornTail?.line ?? -1] : []),
                "seed \(seed): \(result.tornTails)"
            )
        }
        // A collector sees every trace once, in log order, however the log is cut and on however many threads.
        var order: [Trace] = []
        let again = try TraceLogReader(path: path, payloads: false)
        while let trace = try again.next() { order.append(trace) }
        for _ in 0..<3 {
            let profiler = Self.anyProfiler(&random, logBytes: bytes.count)
            let (result, collected) = try profiler.profile(paths: [path], collecting: { OrderCollector() })
            #expect(
                collected.traces == order,
                "seed \(seed), \(profiler.threads) threads, parts of \(profiler.partBytes) bytes"
            )
            #expect(Self.same(result.profile, expected), "seed \(seed)")
        }
        // Folded stacks summed by parts and joined (export --to folded on every core) are the plain sums, lines in
        // the same order.
        var folded = FoldedStacksExport()
        for trace in order { folded.add(trace) }
        for _ in 0..<3 {
            let profiler = Self.anyProfiler(&random, logBytes: bytes.count)
            let (_, joined) = try profiler.profile(paths: [path], collecting: FoldedStacksExport.init)
            #expect(
                joined.text(unit: .nanoseconds) == folded.text(unit: .nanoseconds),
                "seed \(seed), \(profiler.threads) threads, parts of \(profiler.partBytes) bytes"
            )
        }
    }

    /// Profiling only some chains' traces (`chains`, `stats --chain`) gives the plain profile of exactly those
    /// traces, on any number of threads and parts, collectors see only them, and only those chains' changes are
    /// listed; the generated logs hold chains "a" and "b", whose handlers share names.
    @Test(arguments: SeededGenerator.seeds(20))
    func aChainFilterProfilesExactlyThatChainsTraces(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (bytes, _) = Self.log(&random)
        let path = try Self.written(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plain = try TraceLogReader(path: path, payloads: false)
        let all = try plain.readAll().traces
        for chains in [["a"], ["b"], ["a", "b"], ["c"]] {
            let kept = all.filter { chains.contains($0.chain) }
            let expected = ChainProfile(kept)
            var profiler = Self.anyProfiler(&random, logBytes: bytes.count)
            profiler.chains = Set(chains)
            let (result, collected) = try profiler.profile(paths: [path], collecting: { OrderCollector() })
            #expect(
                Self.same(result.profile, expected),
                "seed \(seed), \(chains), \(profiler.threads) threads, parts of \(profiler.partBytes)"
            )
            #expect(collected.traces == kept, "seed \(seed), \(chains)")
            #expect(
                result.chainEdits == plain.chainEdits.filter { chains.contains($0.chain) },
                "seed \(seed), \(chains)"
            )
        }
    }

    /// A log of many files — some big enough to split into parts, some not, some compressed, with torn ends,
    /// dropped records and chain edits — gives the same profile, records, torn tails and trace order on any number
    /// of threads as on one, which reads the files one after another; a malformed file is reported as a plain
    /// read reports it, however many files are read at once.
    @Test(arguments: SeededGenerator.seeds(20))
    func manyFilesReadAtOnceGiveThePlainProfile(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("many")
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for index in 0..<Int.random(in: 2...10, using: &random) {
            let path = directory.appendingPathComponent(String(format: "traces-%04d.jsonl", index)).path
            try Data(Self.log(&random).bytes).write(to: URL(fileURLWithPath: path))
            if random.chance(0.2) {
                let gzip = Process()
                gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                gzip.arguments = ["gzip", "-f", path]
                try gzip.run()
                gzip.waitUntilExit()
                paths.append(path + ".gz")
            } else {
                paths.append(path)
            }
        }
        let plain = try TraceLogProfiler(threads: 1).profile(paths: [directory.path], collecting: { OrderCollector() })
        for _ in 0..<3 {
            let sizes = paths.map { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? 0 }
            let profiler = TraceLogProfiler(
                threads: Int.random(in: 2...4, using: &random),
                partBytes: Int.random(in: 1...max(2, (sizes.max() ?? 2) / 2), using: &random)
            )
            let (result, collected) = try profiler.profile(paths: [directory.path], collecting: { OrderCollector() })
            let context = "seed \(seed), \(profiler.threads) threads, parts of \(profiler.partBytes) bytes"
            #expect(Self.same(result.profile, plain.result.profile), "\(context)")
            #expect(collected.traces == plain.collector.traces, "\(context)")
            #expect(
                result.droppedTraces == plain.result.droppedTraces && result.chainEdits == plain.result.chainEdits,
                "\(context)"
            )
            #expect(
                result.tornTails.map { "\($0.file ?? ""):\($0.line)" }
                    == plain.result.tornTails.map { "\($0.file ?? ""):\($0.line)" },
                "\(context)"
            )
        }
        // A malformed file among them: the same error as one thread's.
        let victim = paths.filter { !$0.hasSuffix(".gz") }.randomElement(using: &random)
        guard let victim else { return }
        try Data((String(decoding: TraceLogFormat.header, as: UTF8.self) + "\n{\"not\": a trace}\n").utf8).write(
            to: URL(fileURLWithPath: victim)
        )
        let oneThread = #expect(throws: FormatError.self) {
            _ = try TraceLogProfiler(threads: 1).profile(paths: [directory.path])
        }
        let several = #expect(throws: FormatError.self) {
            _ = try TraceLogProfiler(threads: 3, partBytes: 1 << 30).profile(paths: [directory.path])
        }
        #expect(oneThread == several, "seed \(seed)")
    }

    /// A file of a log of several that holds nothing — its writer stopped before its header, as when the disk fills
    /// up as a rotating sink starts a file — is that file's torn tail: every reader (one reading them all, the
    /// profiler on any number of threads) reads the other files' traces and reports it. Before, it stopped `stats`,
    /// `report` and `render` of the whole log. A log that is that one file alone is still an error.
    @Test(arguments: SeededGenerator.seeds(12))
    func anEmptyFileAmongSeveralIsATornTail(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("empty-among")
        let count = Int.random(in: 2...8, using: &random)
        let empty = Set(
            (0..<Int.random(in: 1...max(1, count - 1), using: &random)).map { _ in
                Int.random(in: 0..<count, using: &random)
            }
        )
        var expected: [Trace] = []
        var emptyPaths: [String] = []
        for index in 0..<count {
            let path = directory.appendingPathComponent(String(format: "traces-%04d.jsonl", index + 1)).path
            if empty.contains(index) {
                try Data().write(to: URL(fileURLWithPath: path))
                emptyPaths.append(path)
            } else {
                let (bytes, _) = Self.log(&random)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                expected += try TraceLogReader(path: path).readAll().traces
            }
        }
        let reader = try TraceLogReader(path: directory.path)
        let read = try reader.readAll()
        #expect(read.traces == expected, "seed \(seed): empty files \(empty.sorted()) of \(count)")
        let emptyTails = reader.tornTails.filter { $0.byteCount == 0 && $0.line == 1 }.compactMap(\.file)
        #expect(emptyTails == emptyPaths, "seed \(seed)")
        for threads in [1, Int.random(in: 2...4, using: &random)] {
            let (result, collected) = try TraceLogProfiler(
                threads: threads,
                partBytes: Int.random(in: 64...4_096, using: &random)
            )
            .profile(paths: [directory.path], collecting: { OrderCollector() })
            let context = "seed \(seed), \(threads) threads"
            #expect(collected.traces.map(\.id) == expected.map(\.id), "\(context)")
            #expect(
                result.tornTails.map { "\($0.file ?? ""):\($0.line)" }
                    == reader.tornTails.map { "\($0.file ?? ""):\($0.line)" },
                "\(context)"
            )
        }
        let alone = try #require(emptyPaths.first)
        #expect(throws: FormatError.self, "seed \(seed): an empty file alone") {
            _ = try TraceLogReader(path: alone).readAll()
        }
        #expect(throws: FormatError.self, "seed \(seed): an empty file alone") {
            _ = try TraceLogProfiler(threads: 2).profile(paths: [alone])
        }
    }

    /// Keeps every trace in the order it was shown.
    struct OrderCollector: TraceCollector {
        var traces: [Trace] = []
        mutating func add(_ trace: Trace) { traces.append(trace) }
        mutating func append(_ later: OrderCollector) { traces += later.traces }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func aMalformedLineIsReportedAsAPlainReadReportsIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var (bytes, _) = Self.log(&random)
        let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
        let at = random.pick(Array(newlines.dropFirst().dropLast()))
        bytes.insert(contentsOf: Array(#"{"chain" 1}"#.utf8) + [0x0A], at: at + 1)
        let path = TestFiles.directory.appendingPathComponent("malformed-\(UUID()).jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let plain = #expect(throws: FormatError.self) {
            _ = try ChainProfile(reading: TraceLogReader(path: path, payloads: false))
        }
        let parallel = #expect(throws: FormatError.self) {
            _ = try TraceLogProfiler(threads: 3, partBytes: max(1, bytes.count / 7)).profile(paths: [path])
        }
        #expect(plain == parallel, "seed \(seed)")
    }
}
