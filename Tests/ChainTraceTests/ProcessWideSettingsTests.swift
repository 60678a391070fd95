import ChainTraceTestSupport
import Foundation
import Testing

/// Tests run in parallel, so no test may change what every test sees: the bootstrapped recorder and the hop limit
/// are process-wide. A test that set `ChainTracing.maximumHops` to 50 for a moment once stopped another test's
/// hundred-hop trace at its fiftieth hop, on a loaded machine only. The documentation examples that bootstrap a
/// recorder are compiled, never run.
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
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
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
