import ChainTraceTestSupport
import Foundation
import Testing

/// Tests run in parallel, so no test may change what every test sees: the bootstrapped recorder and the hop limit
/// are process-wide. A test that set `ChainTracing.maximumHops` to 50 for a moment once stopped another test's
/// hundred-hop trace at its fiftieth hop, on a loaded machine only. The documentation examples that bootstrap a
/// recorder are compiled, never run; a test that needs the process's tracer bootstrapped (a framework's own
/// `TracingMiddleware` uses no other) does it in an exit test's child process.
@Suite("No test changes process-wide tracing settings")
struct ProcessWideSettingsTests {
    @Test func noTestSetsTheHopLimitOrBootstrapsARecorder() throws {
        let tests = BuiltProduct.packageRoot.appendingPathComponent("Tests")
        let files = try ConcurrentSuiteTagTests.testFiles()
            .filter { $0 != "ChainTraceTests/ProcessWideSettingsTests.swift" }  // its patterns are text here
        var scanned = 0
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            scanned += 1
            let lines = text.components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                // An exit test's body runs in a child process of its own, where a tracer may be bootstrapped.
                let opensExitTest = lines[max(0, number - 3)..<number].contains { $0.contains("processExitsWith") }
                #expect(
                    !code.contains("InstrumentationSystem.bootstrap(") || opensExitTest,
                    "\(file):\(number + 1) bootstraps the process-wide tracer outside an exit test: \(code)"
                )
                #expect(
                    !code.contains(#/ChainTracing\.maximumHops\s*=[^=]/#),
                    "\(file):\(number + 1) sets the process-wide hop limit: \(code)"
                )
                #expect(
                    !code.contains("ChainTracing.bootstrap(") || file.hasSuffix("/DocumentationExamples.swift"),
                    "\(file):\(number + 1) bootstraps the process-wide recorder: \(code)"
                )
            }
        }
        #expect(scanned >= 100, "the scan found \(scanned) files")
    }
}
