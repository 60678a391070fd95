import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A trace log given where a chain definition goes — `render traces.jsonl`, the commonest slip, since a log is
/// drawn with `--trace` — is named for what it is at its first line, by every command that reads a definition:
/// logs written by the sink in either format, of no traces or several, with CRLF line ends, or gzip-compressed.
/// Before, the error was where its JSON stopped being one document ("expected end of the value, found '{', a second
/// value") — or, for a log of no traces, "expected one of \"$schema\", \"chain\", …, found \"format\"".
@Suite("A trace log given as a chain definition, through the binary")
struct LogGivenAsDefinitionCommandTests {
    /// A log the sink wrote: `count` traces of generated names, in `format`.
    static func log(_ random: inout SeededGenerator, count: Int, format: TraceLogSink.Format, in directory: URL) throws
        -> String
    {
        let path = directory.appendingPathComponent("app-\(random.next() % 1000).traces.jsonl").path
        var options = TraceLogSink.Options()
        options.format = format
        options.writesInBackground = random.chance(0.5)
        let sink = try TraceLogSink(path: path, options: options)
        for id in 0..<count {
            let names = (0..<Int.random(in: 1...4, using: &random)).map { "H\($0)-\(random.next() % 100)" }
            let hops = names.enumerated().map { position, name in
                Hop(
                    handler: name,
                    position: position,
                    decision: position == names.count - 1 ? .accepted : .passed,
                    startOffset: UInt64(position),
                    inclusiveDuration: UInt64(names.count - position),
                    selfDuration: 1
                )
            }
            sink.record(
                Trace(
                    id: UInt64(id + 1),
                    commandKind: "Tap",
                    commandID: "c\(id)",
                    entry: names[0],
                    chain: "app",
                    hops: hops,
                    outcome: .accepted(by: names[names.count - 1]),
                    duration: UInt64(names.count)
                )
            )
        }
        try sink.close()
        return path
    }

    @Test(arguments: SeededGenerator.seeds(8))
    func everyCommandReadingADefinitionNamesTheLog(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let count = random.pick([0, 1, Int.random(in: 2...6, using: &random)])
        var path = try Self.log(
            &random,
            count: count,
            format: random.pick([TraceLogSink.Format.compact, .jsonLines]),
            in: directory
        )
        var found = "a trace log (its first line is a trace log's header)"
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let crlf = bytes.reduce(into: Data()) { data, byte in data += byte == 0x0A ? [0x0D, 0x0A] : [byte] }
            try crlf.write(to: URL(fileURLWithPath: path))
        case 1:
            path = try TestFiles.gzip(path: path)
            found = "gzip-compressed data (a compressed trace log or command stream?)"
        default: break
        }
        let stream = try CLI.write(Array(#"{"kind":"Tap"}"#.utf8) + [0x0A], named: "taps.jsonl", in: directory)
        let other = try Self.log(&random, count: 2, format: .compact, in: directory)
        let commands: [[String]] = [
            ["render", path, "-o", directory.appendingPathComponent("out.svg").path],
            ["replay", path, stream],
            ["which", path, #"{"kind":"Tap"}"#],
            ["validate", path],
            ["stats", other, "--definition", path],
            ["report", other, "--definition", path, "-o", directory.appendingPathComponent("out.html").path],
            ["gen-tests", other, "--definition", path],
        ]
        for command in commands {
            let output = try CLI.run(command)
            let context = "seed \(seed), \(count) traces: chaintrace \(command.joined(separator: " "))"
            #expect(output.status == (command[0] == "validate" ? 1 : 2), "\(context): \(output.status)")
            let said = command[0] == "validate" ? output.standardOutput : output.standardError
            #expect(said.contains("\(path):1:1: "), "\(context): \(said)")
            #expect(said.contains("expected a chain definition"), "\(context): \(said)")
            #expect(said.contains("found \(found)"), "\(context): \(said)")
            #expect(
                !FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.svg").path),
                "\(context)"
            )
            #expect(
                !FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.html").path),
                "\(context)"
            )
        }
    }
}
