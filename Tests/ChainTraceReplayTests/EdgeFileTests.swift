import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Files at the edges, as users hand them over: empty, blank lines only, a header alone, a BOM in front, a
/// directory, a missing path. Each reads as what it is — no commands, no traces — or is an error naming the file
/// and what was expected, never a crash or a silent success; and the same bytes read from disk and from memory
/// give the same answer.
@Suite("Files at the edges")
struct EdgeFileTests {
    enum Answer: Equatable {
        case items(Int)
        case error(line: Int, expected: String)
    }

    static func stream(_ bytes: [UInt8]) -> Answer {
        let reader = CommandStreamReader(bytes: bytes, name: "f")
        var count = 0
        do {
            while try reader.next() != nil { count += 1 }
            return .items(count)
        } catch {
            return .error(line: error.line, expected: error.expected)
        }
    }

    static func log(_ bytes: [UInt8]) -> Answer {
        do {
            return .items(try TraceLogReader(bytes: bytes, name: "f").readAll().traces.count)
        } catch {
            return .error(line: error.line, expected: error.expected)
        }
    }

    static let cases: [(String, [UInt8])] = [
        ("empty", []), ("newline", [0x0A]), ("blank lines", Array("\n  \n\t\n\r\n".utf8)),
        ("header alone", TraceLogFormat.header), ("header and newline", TraceLogFormat.header + [0x0A]),
        ("BOM then header", [0xEF, 0xBB, 0xBF] + TraceLogFormat.header + [0x0A]), ("NUL", [0x00]),
        ("BOM then command", [0xEF, 0xBB, 0xBF] + Array(#"{"kind":"K"}"#.utf8) + [0x0A]),
    ]

    @Test func eachEdgeReadsAsWhatItIs() throws {
        let answers = Dictionary(uniqueKeysWithValues: Self.cases.map { ($0.0, (Self.stream($0.1), Self.log($0.1))) })
        #expect(answers["empty"]?.0 == .items(0) && answers["blank lines"]?.0 == .items(0), "\(answers)")
        #expect(answers["header and newline"]?.1 == .items(0) && answers["header alone"]?.1 == .items(0), "\(answers)")
        if case .error(let line, let expected)? = answers["empty"]?.1 {
            #expect(line == 1 && expected.contains("trace log header"), "an empty log: \(expected)")
        } else {
            Issue.record("an empty file read as a log: \(String(describing: answers["empty"]?.1))")
        }
        for (name, bytes) in Self.cases {
            // The same bytes from disk.
            let path = TestFiles.directory.appendingPathComponent("edge-\(UUID()).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fromDisk: Answer
            do {
                fromDisk = .items(try TraceLogReader(path: path).readAll().traces.count)
            } catch {
                fromDisk = .error(line: error.line, expected: error.expected)
            }
            #expect(fromDisk == Self.log(bytes), "\(name)")
        }
    }

    @Test func aDirectoryOrAMissingPathIsAnErrorNamingIt() throws {
        let directory = TestFiles.directory.path
        let missing = directory + "/no-such-\(UUID()).json"
        for path in [directory, missing] {
            #expect { try ChainDefinition.load(path: path) } throws: { ($0 as? FormatError)?.file == path }
            #expect { try CommandStreamReader(path: path).next() } throws: { ($0 as? FormatError)?.file == path }
        }
        // A trace log may be a directory of log files (a rotated log); one without any is an error naming it.
        let empty = directory + "/empty-\(UUID())"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        for path in [empty, missing] {
            #expect { try TraceLogReader(path: path).readAll() } throws: { ($0 as? FormatError)?.file == path }
        }
    }
}
