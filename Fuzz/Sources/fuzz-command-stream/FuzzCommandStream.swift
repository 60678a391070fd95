import ChainTrace
@testable import ChainTraceDefinitions  // the stream reader's fast path (`FieldSchema`) is package, not public
import FuzzSupport

/// A command stream read by the general decoder and by the fast one (slots for fields rules read, member
/// names remembered from line to line) must give the same commands and the same errors, in the same order.
@_cdecl("fuzz_command_stream_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzCommandStream(inputBytes(data, size)) }
}

func fuzzCommandStream(_ bytes: [UInt8]) -> CInt {
    let general = readings(CommandStreamReader(bytes: bytes, name: "s.jsonl"))
    let fast = readings(CommandStreamReader(bytes: bytes, name: "s.jsonl", schema: FieldSchema(names: ["w", "c", "nested", "p"])))
    precondition(general == fast, "the decoders disagree:\n\(general)\n\(fast)")
    return 0
}

enum Reading: Equatable {
    case command(line: Int, kind: String, id: String?, entry: String?, fields: JSONValue)
    case other(line: Int)
    case error(line: Int, column: Int, expected: String)
    case torn(line: Int)
}

func readings(_ reader: CommandStreamReader) -> [Reading] {
    var result: [Reading] = []
    while result.count < 10_000 {
        do {
            guard let (line, item) = try reader.next() else { break }
            if case .command(let command) = item {
                result.append(.command(line: line, kind: command.kind, id: command.id, entry: command.entry, fields: command.fields))
            } else {
                result.append(.other(line: line))
            }
        } catch {
            result.append(.error(line: error.line, column: error.column, expected: error.expected))
        }
    }
    if let torn = reader.tornTail { result.append(.torn(line: torn.line)) }
    return result
}
