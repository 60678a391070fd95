import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Two sinks opened on one log path, as a factory function called for two chains does, or a reconfiguration that
/// opens the new sink before closing the old: the second is refused with an error that says why, and the first
/// log is untouched and reads back whole. Before, both wrote at once — the second truncated the file, or replaced
/// the first's rotated series under it — and the log read back as `expected a JSON value, found ','` halfway down.
/// Generated: either format, rotating or not, replacing or appending, in the background or not, for each sink.
@Suite("One sink a log path")
struct OneSinkAPathTests {
    static func trace(_ number: Int) -> Trace { RotatedLogSeriesTests.trace(number) }

    static func options(_ random: inout SeededGenerator, rotation: Int?) -> TraceLogSink.Options {
        RotatedLogSeriesTests.options(&random, rotation: rotation)
    }

    @Test("a second sink on a path another has open is refused", arguments: SeededGenerator.seeds(24))
    func theSecondSinkIsRefused(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("one-sink")
        let path = directory.appendingPathComponent("traces.jsonl").path
        // Both sinks of one log rotate, or neither: the path names a series, or a file.
        let rotation = random.pick([nil, 1, 300, 5_000])
        let first = try TraceLogSink(path: path, options: Self.options(&random, rotation: rotation))
        var written: [Int] = []
        for number in 0..<Int.random(in: 1...40, using: &random) {
            first.record(Self.trace(number))
            written.append(number)
        }
        try first.flush()
        let before = try Self.contents(of: directory)

        let appending = random.chance(0.5)
        #expect(throws: FormatError.self, "seed \(seed)") {
            _ = try TraceLogSink(path: path, appending: appending, options: Self.options(&random, rotation: rotation))
        }
        do {
            _ = try TraceLogSink(path: path, appending: appending, options: Self.options(&random, rotation: rotation))
        } catch {
            #expect(error.description.contains("another TraceLogSink"), "seed \(seed): \(error)")
        }
        #expect(try Self.contents(of: directory) == before, "seed \(seed): the refused sink changed the log")

        // The first goes on, and reads back whole; once it is closed, the path is free again.
        for number in written.count..<written.count + 5 {
            first.record(Self.trace(number))
            written.append(number)
        }
        try first.close()
        let log = try TraceLogReader(paths: first.files).readAll()
        #expect(log.traces.map { Int($0.id) } == written, "seed \(seed)")
        #expect(log.tornTail == nil, "seed \(seed)")
        let second = try TraceLogSink(
            path: path,
            appending: appending,
            options: Self.options(&random, rotation: rotation)
        )
        second.record(Self.trace(1_000))
        try second.close()
        let after = try TraceLogReader(
            paths: appending ? first.files + second.files.filter { !first.files.contains($0) } : second.files
        )
        .readAll()
        #expect(after.traces.map { Int($0.id) } == (appending ? written : []) + [1_000], "seed \(seed)")
    }

    /// Every file in `directory` and its bytes.
    static func contents(of directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
        }
        return files
    }
}

/// A process the app starts while a log is open (a test runner's next binary, a helper tool) inherits none of the
/// sink's files: once the sink is closed, its path is free for the next sink at once, however long the child lives.
/// Before, the log's descriptor (and with it the lock that marks a log as written) lived on in every child started
/// meanwhile, and a sink opened on the same path failed with "a trace log no other sink is writing".
@Suite("Children inherit no log")
struct ChildProcessLogTests {
    @Test(arguments: SeededGenerator.seeds(6))
    func aClosedLogIsFreeWhileAChildStartedMeanwhileRuns(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("child")
        let path = directory.appendingPathComponent("traces.jsonl").path
        let options = RotatedLogSeriesTests.options(&random, rotation: random.pick([nil, 1, 400]))
        let first = try TraceLogSink(path: path, options: options)
        for number in 0..<Int.random(in: 1...20, using: &random) { first.record(RotatedLogSeriesTests.trace(number)) }
        try first.flush()
        // A child that outlives the sink, started with plain `posix_spawn` as many programs start theirs — it
        // inherits every descriptor not marked close-on-exec (Foundation's `Process` closes them itself) — and
        // killed below, so the test never waits on it.
        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { arguments.forEach { free($0) } }
        #expect(posix_spawn(&child, "/bin/sleep", nil, nil, arguments, environ) == 0)
        defer {
            // Never 0 here: `kill(0, …)` would signal this whole process group.
            if child > 0 {
                kill(child, SIGKILL)
                var status: Int32 = 0
                waitpid(child, &status, 0)
            }
        }
        try first.close()
        let second = try TraceLogSink(path: path, appending: random.chance(0.5), options: options)
        second.record(RotatedLogSeriesTests.trace(99))
        try second.close()
    }

    /// Every file the sources open, and every descriptor they copy, is closed on `exec`.
    @Test func everyDescriptorTheSourcesOpenIsClosedOnExec() throws {
        let sources = BuiltProduct.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        let opens = try Regex(#"[^\w.](open|openat)\(\w+, "#)
        let copies = try Regex(#"[^\w.]dup2?\("#)
        var calls = 0
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.components(separatedBy: "//")[0]
                if code.contains(opens) || code.contains(copies) {
                    calls += 1
                    // `dup2` onto standard error is meant to stay across exec; the saved copy is CLOEXEC (F_DUPFD_CLOEXEC).
                    if code.contains("dup2(") { continue }
                    #expect(code.contains("O_CLOEXEC"), "\(file):\(number + 1) opens without O_CLOEXEC: \(line)")
                }
            }
        }
        #expect(calls >= 8, "the scan found \(calls) calls")
    }
}
