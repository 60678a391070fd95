import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceReplay
import ChainTraceTestGeneration
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// The trace log header, which decides how a file is read: only the first non-blank line can be one; a header of
/// this version reads the log, a newer version or another format is refused naming what was found; a header line
/// anywhere else in a stream is a command like any other line (kind "Command" when left out, as documented) and
/// does not switch the reader to a log; and generated test names built from any ids are Swift identifiers.
@Suite("Headers and names")
struct HeaderTests {
    @Test(arguments: [
        (#"{"format":"chaintrace-trace-log","version":1}"#, true),
        (#"{"version":1,"format":"chaintrace-trace-log"}"#, true),
        (#"{"format":"chaintrace-trace-log","version":2}"#, true),
        (#"{"format":"chaintrace-trace-log","version":3}"#, true),
        (#"{"format":"chaintrace-trace-log","version":4}"#, true),
        (#"{"format":"chaintrace-trace-log","version":5}"#, false),
        (#"{"format":"chaintrace-trace-log","version":0}"#, false),
        (#"{"format":"chaintrace-trace-log","version":"1"}"#, false),
        (#"{"format":"chaintrace-trace-log"}"#, false),
        (#"{"format":"other","version":1}"#, false),
        (#"{"kind":"K"}"#, false),
        ("[]", false),
    ])
    func onlyThisVersionsHeaderReadsALog(header: String, reads: Bool) {
        let bytes = Array((header + "\n").utf8)
        do {
            _ = try TraceLogReader(bytes: bytes, name: "h.jsonl").readAll()
            #expect(reads, "\(header) was read as a log")
        } catch {
            #expect(!reads, "\(header): \(error)")
            #expect(error.line == 1 && error.column == 1 && !error.found.isEmpty, "\(header): \(error)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func aHeaderAnywhereButFirstIsNotACommand(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var lines = (0..<Int.random(in: 1...5, using: &random)).map { #"{"kind":"K\#($0)"}"# }
        let at = Int.random(in: 1...lines.count, using: &random)
        lines.insert(String(decoding: TraceLogFormat.header, as: UTF8.self), at: at)
        let reader = CommandStreamReader(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), name: "s")
        var read: [JSONCommand] = []
        while let (_, item) = try? reader.next() {
            if case .command(let command) = item { read.append(command) }
        }
        // Every line is a command; the header among them is one of kind "Command" (the documented default), its
        // members its fields — it does not turn the rest of the stream into a log.
        #expect(read.count == lines.count, "seed \(seed)")
        #expect(
            read[at].kind == "Command" && read[at].fields == ["format": "chaintrace-trace-log", "version": 1],
            "seed \(seed)"
        )
        #expect(read.enumerated().allSatisfy { $0.offset == at || $0.element.kind.hasPrefix("K") }, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func generatedTestNamesAreIdentifiers(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var generator = SwiftTestGenerator(logName: "l", definitionPath: nil, mode: .lenient, commandLine: "c")
        for index in 0..<8 {
            generator.add(
                Trace(
                    id: UInt64(index),
                    commandKind: "K",
                    commandID: random.chance(0.8) ? random.hostileName() : nil,
                    entry: "A",
                    chain: "c",
                    hops: [],
                    outcome: .fellOffTheEnd,
                    duration: 0
                ),
                line: index + 2
            )
        }
        for line in generator.source.split(separator: "\n") where line.contains("@Test func ") {
            let name =
                line.split(separator: " ").last { $0.hasSuffix("()") || $0.contains("(") }.map {
                    $0.prefix { $0 != "(" }
                } ?? ""
            let valid = name.unicodeScalars.allSatisfy {
                $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            }
            #expect(valid && name.hasPrefix("command") && name.unicodeScalars.count <= 60, "seed \(seed): \(name)")
        }
    }
}
