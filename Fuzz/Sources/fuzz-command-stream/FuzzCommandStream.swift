import ChainTrace
import FuzzSupport

@testable import ChainTraceDefinitions  // the stream reader's fast path (`FieldSchema`) is package, not public
@testable import ChainTraceReplay  // the stream reader, and the replay's read-ahead (`CommandReadAhead`, package)

/// A command stream read by the general decoder and by the fast one (slots for fields rules read, member
/// names remembered from line to line) must give the same commands and the same errors, in the same order — and so
/// must the replay's read-ahead, in small batches read by its thread and by the caller with a second reader.
@_cdecl("fuzz_command_stream_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzCommandStream(inputBytes(data, size)) }
}

func fuzzCommandStream(_ bytes: [UInt8]) -> CInt {
    let general = readings(CommandStreamReader(bytes: bytes, name: "s.jsonl"))
    let fast = readings(
        CommandStreamReader(bytes: bytes, name: "s.jsonl", schema: FieldSchema(names: ["w", "c", "nested", "p"]))
    )
    precondition(general == fast, "the decoders disagree:\n\(general)\n\(fast)")
    // The read-ahead, going past errors or stopping at the first (by the input's length), and reporting no torn
    // tail (a command stream has none: its last line is read like any other).
    let schema = FieldSchema(names: ["w", "c", "nested", "p"])
    let batchSize = 1 + Int(bytes.count % 7)
    let readsPastErrors = bytes.count % 2 == 0
    let ahead = CommandReadAhead(
        CommandStreamReader(bytes: bytes, name: "s.jsonl", schema: schema),
        readsPastErrors: readsPastErrors,
        batchSize: batchSize,
        batchesAhead: 2,
        callerDecodes: true
    )
    var readAhead: [Reading] = []
    while readAhead.count < 10_000, let entry = ahead.next() {
        switch entry.item {
        case .command(let command)?:
            readAhead.append(
                .command(
                    line: entry.line,
                    kind: command.kind,
                    id: command.id,
                    entry: command.entry,
                    fields: command.fields
                )
            )
        case .change?:
            readAhead.append(.other(line: entry.line))
        case nil:
            let error = entry.error!
            readAhead.append(.error(line: error.line, column: error.column, expected: error.expected))
        }
    }
    ahead.finish()
    var expected = general.filter { if case .torn = $0 { false } else { true } }
    if !readsPastErrors, let error = expected.firstIndex(where: { if case .error = $0 { true } else { false } }) {
        expected.removeSubrange((error + 1)...)
    }
    precondition(readAhead == expected, "the read-ahead disagrees:\n\(expected)\n\(readAhead)")
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
                result.append(
                    .command(
                        line: line,
                        kind: command.kind,
                        id: command.id,
                        entry: command.entry,
                        fields: command.fields
                    )
                )
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
