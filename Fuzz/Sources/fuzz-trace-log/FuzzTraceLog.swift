import ChainTrace
@testable import ChainTraceJSON
@testable import ChainTraceTraceLog
import FuzzSupport

/// A trace log from any bytes: the reader (fast line decoder first, general one behind it) gives for each line
/// exactly the trace the general decoder gives for that line alone, and every trace it reads writes back to a
/// line that reads back to the same trace.
@_cdecl("fuzz_trace_log_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzTraceLog(inputBytes(data, size)) }
}

func fuzzTraceLog(_ bytes: [UInt8]) -> CInt {
    let reader = TraceLogReader(bytes: bytes, name: "log.jsonl")
    var traces: [(trace: Trace, line: Int)] = []
    do {
        while let trace = try reader.next() { traces.append((trace, reader.line)) }
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "an error outside the input: \(error)")
    }
    // The general decoder on the very line each trace came from.
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    for (trace, number) in traces {
        precondition(number >= 1 && number <= lines.count, "a trace from line \(number) of \(lines.count)")
        let line = Array(lines[number - 1])
        let general: Trace
        do {
            general = try TraceLogFormat.decode(JSONDocument(bytes: line, file: "line"))
        } catch {
            fatalError("line \(number) read as a trace, but not by the general decoder: \(error)")
        }
        precondition(general == trace, "fast and general decoders disagree on line \(number): \(String(decoding: line, as: UTF8.self))")
        let again = TraceLogReader(bytes: TraceLogFormat.header + [0x0A] + TraceLogFormat.encode(trace) + [0x0A])
        precondition((try? again.next()) == trace, "a trace does not survive its own encoding")
    }
    return 0
}
