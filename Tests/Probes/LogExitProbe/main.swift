// Records COUNT traces into a trace log and ends without closing it — returning from main, or calling exit(0) —
// as an app whose sink lives in a global (`ChainTracing.bootstrap`) does. OpenTraceLogSinkTests reads the log back:
// every trace recorded before the end must be in it.
//
// Usage: chaintrace-log-exit-probe LOG COUNT compact|jsonLines background|direct return|exit
import ChainTrace
import ChainTraceTraceLog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 6, let count = Int(arguments[2]) else {
    print("usage: chaintrace-log-exit-probe LOG COUNT compact|jsonLines background|direct return|exit")
    exit(2)
}
var options = TraceLogSink.Options()
options.format = arguments[3] == "jsonLines" ? .jsonLines : .compact
options.writesInBackground = arguments[4] == "background"
options.whenBehind = .block
// Long enough that no timed flush comes before the end.
options.flushInterval = .seconds(60)

/// A handler of a chain the app already has, instrumented with one line.
final class Validator: @unchecked Sendable {
    let name: String
    var next: Validator?
    init(_ name: String) { self.name = name }
    func validate(_ value: Int) -> Int? {
        traceHop(name, command: value, chain: "exiting") {
            value % 3 == Int(name.dropFirst())! ? value : next?.validate(value)
        }
    }
}
let validators = (0..<3).map { Validator("V\($0)") }
for (validator, next) in zip(validators, validators.dropFirst()) { validator.next = next }
ChainTracing.bootstrap(Recorder(sink: try TraceLogSink(path: arguments[1], options: options), payloads: .captured))
for value in 0..<count { _ = validators[0].validate(value) }
if arguments[5] == "exit" { exit(0) }
