// Records traces into a trace log as fast as it can, flushing every 1 000 and then printing "flushed N" (N traces
// are in the file), until it is killed. BackgroundTraceLogSinkTests kills it with SIGKILL mid-run and checks that
// every trace flushed before the kill reads back.
//
// Usage: chaintrace-log-kill-probe LOG [compact|jsonLines]
import ChainTrace
import ChainTraceTraceLog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: chaintrace-log-kill-probe LOG [compact|jsonLines]")
    exit(2)
}
var options = TraceLogSink.Options()
options.format = arguments.count > 2 && arguments[2] == "jsonLines" ? .jsonLines : .compact
options.bufferSize = 4096
options.flushInterval = .milliseconds(1)
options.whenBehind = .block
let log = try TraceLogSink(path: arguments[1], options: options)
let chain = try Chain<Int, Int>(
    "killed",
    handlers: (0..<10).map { index in Handler("Handler\(index)") { value in index == 9 ? .accept(value) : .pass } },
    recorder: Recorder(sink: log, payloads: .captured)
)
var sent = 0
while true {
    for _ in 0..<1_000 {
        try chain.send(sent)
        sent += 1
    }
    try log.flush()
    // Straight to the descriptor: nothing buffered in this process is lost to the kill.
    let line = Array("flushed \(sent)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}
