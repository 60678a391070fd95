import ChainTrace
import FuzzSupport

@testable import ChainTraceJSON
@testable import ChainTraceTraceLog

/// A trace log from any bytes, in any version: the reader with its fast line decoders gives exactly the
/// traces (and the error, if any) that it gives with only the general decoders; every version 1 trace line also
/// decodes alone to the same trace; and the traces read write back, in version 1 and the compact version, to logs
/// that read back to the same traces.
@_cdecl("fuzz_trace_log_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzTraceLog(inputBytes(data, size)) }
}

func read(_ bytes: [UInt8], fast: Bool) -> (traces: [(trace: Trace, line: Int)], error: FormatError?, dropped: Int) {
    let reader = TraceLogReader(bytes: bytes, name: "log.jsonl")
    reader.usesFastPath = fast
    var traces: [(trace: Trace, line: Int)] = []
    do {
        while let trace = try reader.next() { traces.append((trace, reader.line)) }
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "an error outside the input: \(error)")
        return (traces, error, reader.droppedTraces)
    }
    return (traces, nil, reader.droppedTraces)
}

func fuzzTraceLog(_ bytes: [UInt8]) -> CInt {
    let fast = read(bytes, fast: true)
    let general = read(bytes, fast: false)
    precondition(
        fast.traces.map(\.trace) == general.traces.map(\.trace),
        "fast and general readers disagree on the traces"
    )
    precondition(
        fast.traces.map(\.line) == general.traces.map(\.line),
        "fast and general readers disagree on the lines"
    )
    precondition(
        fast.error == general.error,
        "fast and general readers disagree on the error: \(String(describing: fast.error)) / \(String(describing: general.error))"
    )
    precondition(fast.dropped == general.dropped, "fast and general readers disagree on dropped traces")
    // A version 1 line decodes alone, to the same trace.
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    for (trace, number) in fast.traces {
        precondition(number >= 1 && number <= lines.count, "a trace from line \(number) of \(lines.count)")
        let line = Array(lines[number - 1])
        guard line.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") else { continue }
        let alone: Trace
        do {
            alone = try TraceLogFormat.decode(JSONDocument(bytes: line, file: "line"))
        } catch {
            fatalError("line \(number) read as a trace, but not alone: \(error)")
        }
        precondition(
            alone == trace,
            "line \(number) decodes differently alone: \(String(decoding: line, as: UTF8.self))"
        )
    }
    // Both versions write the traces back to logs that read back to them.
    let traces = fast.traces.map(\.trace)
    let version1 = TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
    precondition((try? TraceLogReader(bytes: version1).readAll().traces) == traces, "traces do not survive version 1")
    var compact = CompactTraceLogFormat.header + [0x0A]
    var encoder = CompactTraceLogEncoder()
    for trace in traces { encoder.encode(trace, into: &compact) }
    precondition(
        (try? TraceLogReader(bytes: compact).readAll().traces) == traces,
        "traces do not survive the compact version"
    )
    return 0
}
