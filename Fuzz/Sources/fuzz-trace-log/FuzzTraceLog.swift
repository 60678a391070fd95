import ChainTrace
import ChainTraceFormats
import FuzzSupport

/// A trace log from any bytes: the reader (fast line decoder first, general one behind it) gives exactly the
/// traces the general decoder gives line by line, and every trace it reads writes back to a line that reads
/// back to the same trace.
@_cdecl("fuzz_trace_log_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzTraceLog(inputBytes(data, size)) }
}

func fuzzTraceLog(_ bytes: [UInt8]) -> CInt {
    let reader = TraceLogReader(bytes: bytes, name: "log.jsonl")
    var traces: [Trace] = []
    do {
        while let trace = try reader.next() { traces.append(trace) }
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "an error outside the input: \(error)")
    }
    // The general decoder, line by line, over the lines the reader got through.
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropFirst()
    var generalCount = 0
    for trace in traces {
        while let line = lines.first, line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { lines.removeFirst() }
        guard let line = lines.popFirst() else { fatalError("the reader gave more traces than the log has lines") }
        generalCount += 1
        guard let value = try? JSONDocument(bytes: Array(line), file: "line").root,
            let general = try? TraceLogFormat.decode(value, file: "line", line: 1)
        else { continue }  // a torn or odd line the reader skipped reads differently alone; compare the rest
        precondition(general == trace, "fast and general decoders disagree on \(String(decoding: line, as: UTF8.self))")
        let again = TraceLogReader(bytes: TraceLogFormat.header + [0x0A] + TraceLogFormat.encode(trace) + [0x0A])
        precondition((try? again.next()) == trace, "a trace does not survive its own encoding")
    }
    return 0
}
