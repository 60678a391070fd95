import ChainTrace
import ChainTraceAnalysis
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Trace logs compressed with gzip (`gzip`, as log rotation leaves them) read as the plain logs they hold — both
/// versions, several gzip members one after another, in a directory beside plain files — through the library and
/// through every reading command; a gzip file cut anywhere or damaged is an error naming it, never a silent end.
@Suite("Logs compressed with gzip")
struct GzipLogTests {
    /// `bytes` compressed by the system's `gzip`.
    static func gzip(_ bytes: [UInt8], in directory: URL, named name: String) throws -> String {
        try TestFiles.gzip(path: try CLI.write(bytes, named: name, in: directory))
    }

    /// A generated log, version 1 or 2, and the traces its plain bytes read as.
    static func log(_ random: inout SeededGenerator) throws -> (bytes: [UInt8], traces: [Trace]) {
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 0...300, using: &random))
        let bytes = LogCommandsAgreeWithLibraryTests.bytes(traces, compact: random.chance(0.5))
        return (bytes, try TraceLogReader(bytes: bytes).readAll().traces)
    }

    @Test(arguments: SeededGenerator.seeds(12))
    func aCompressedLogReadsAsThePlainOne(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let (first, firstTraces) = try Self.log(&random)
        let (second, secondTraces) = try Self.log(&random)
        let compressed = try Self.gzip(first, in: directory, named: "a.jsonl")
        #expect(try TraceLogReader(path: compressed).readAll().traces == firstTraces, "seed \(seed)")
        // The parallel profiler cannot enter a gzip file part way: it reads it whole, to the same profile.
        let profiled = try TraceLogProfiler(threads: 2, partBytes: 64).profile(paths: [compressed]).profile
        #expect(profiled.commands == firstTraces.count, "seed \(seed)")
        #expect(profiled.handlers.map(\.seen) == ChainProfile(firstTraces).handlers.map(\.seen), "seed \(seed)")
        // Two gzip members in one file (`cat a.gz b.gz`) read as the two logs one after the other.
        let other = try Self.gzip(second, in: directory, named: "b.jsonl")
        let joined = directory.appendingPathComponent("joined.jsonl.gz").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: compressed)) + Data(contentsOf: URL(fileURLWithPath: other)))
            .write(to: URL(fileURLWithPath: joined))
        #expect(try TraceLogReader(path: joined).readAll().traces == firstTraces + secondTraces, "seed \(seed)")
        // A directory of rotated files, some compressed: read in name order, each as it is.
        let rotated = directory.appendingPathComponent("rotated")
        try FileManager.default.createDirectory(at: rotated, withIntermediateDirectories: true)
        _ = try Self.gzip(first, in: rotated, named: "traces-0001.jsonl")
        _ = try CLI.write(second, named: "traces-0002.jsonl", in: rotated)
        #expect(
            try TraceLogReader.files(at: rotated.path).map { ($0 as NSString).lastPathComponent } == [
                "traces-0001.jsonl.gz", "traces-0002.jsonl",
            ]
        )
        #expect(try TraceLogReader(path: rotated.path).readAll().traces == firstTraces + secondTraces, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(12))
    func aCompressedLogCutOrDamagedIsAnError(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        // A version 1 log large enough that the damage lands inside the compressed stream, not only in its trailer.
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: 2_000)
        let bytes = LogCommandsAgreeWithLibraryTests.bytes(traces)
        let compressed = try Self.gzip(bytes, in: directory, named: "log.jsonl")
        let whole = try Array(Data(contentsOf: URL(fileURLWithPath: compressed)))
        let cut = Array(whole.prefix(Int.random(in: 10..<(whole.count - 1), using: &random)))
        var damaged = whole
        let at = Int.random(in: 20..<(whole.count - 8), using: &random)
        damaged[at] ^= 0xFF
        for (name, variant) in [("cut.jsonl.gz", cut), ("damaged.jsonl.gz", damaged)] {
            let path = try CLI.write(variant, named: name, in: directory)
            let error = #expect(throws: FormatError.self, "seed \(seed): \(name) read without an error") {
                _ = try TraceLogReader(path: path).readAll()
            }
            if let error {
                // Either zlib noticed (cut short, damaged), or the damage decompressed into a line that is not a trace.
                #expect(error.file == path, "seed \(seed): \(error)")
            }
        }
    }

    @Test func everyReadingCommandReadsACompressedLogAsThePlainOne() throws {
        var random = SeededGenerator(seed: 5)
        let directory = try CLI.temporaryDirectory()
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: 200)
        let plain = try CLI.write(LogCommandsAgreeWithLibraryTests.bytes(traces), named: "plain.jsonl", in: directory)
        let compressed = try Self.gzip(
            LogCommandsAgreeWithLibraryTests.bytes(traces),
            in: directory,
            named: "log.jsonl"
        )
        for arguments in [
            ["stats", "--format", "json"], ["export", "--to", "folded"], ["export", "--to", "otlp"],
            ["export", "--to", "jsonl"], ["diff", plain],
        ] {
            let fromPlain = try CLI.run([arguments[0], plain] + arguments.dropFirst())
            let fromCompressed = try CLI.run([arguments[0], compressed] + arguments.dropFirst())
            #expect(fromCompressed.status == fromPlain.status, "\(arguments): \(fromCompressed.standardError)")
            // The same output but for the file's name.
            #expect(
                fromCompressed.standardOutput.replacingOccurrences(of: compressed, with: plain)
                    == fromPlain.standardOutput,
                "\(arguments)"
            )
        }
        let page = directory.appendingPathComponent("report.html").path
        #expect(try CLI.run("report", compressed, "-o", page).status == 0)
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains(#""commands":200,"#))
    }

    /// Progress counts a compressed file's compressed bytes, so that it ends at the files' sizes, never past them,
    /// and only grows — the decompressed bytes passed the file's size long before the end.
    @Test(arguments: SeededGenerator.seeds(6))
    func progressIsMeasuredInTheFilesBytes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory().appendingPathComponent("mixed")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for index in 0..<Int.random(in: 1...4, using: &random) {
            let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...3_000, using: &random))
            let bytes = LogCommandsAgreeWithLibraryTests.bytes(traces)
            if random.chance(0.7) {
                _ = try Self.gzip(bytes, in: directory, named: "traces-\(index).jsonl")
            } else {
                _ = try CLI.write(bytes, named: "traces-\(index).jsonl", in: directory)
            }
        }
        let files = try TraceLogReader.files(at: directory.path)
        let total = try files.reduce(0) {
            $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int ?? 0)
        }
        let reader = try TraceLogReader(path: directory.path, payloads: false)
        var last = 0
        while try reader.next() != nil {
            #expect(
                reader.bytesRead >= last && reader.bytesRead <= total,
                "seed \(seed): \(reader.bytesRead) of \(total)"
            )
            last = reader.bytesRead
        }
        #expect(reader.bytesRead == total, "seed \(seed): \(reader.bytesRead) of \(total) bytes")
    }
}
