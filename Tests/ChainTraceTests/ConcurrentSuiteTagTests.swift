import ChainTraceTestSupport
import Foundation
import Testing

/// ThreadSanitizer runs the suites tagged `.concurrent` (`Scripts/test-sanitized.sh`, through
/// `Scripts/concurrent-suites.py`): every suite in a file that starts threads or tasks carries the tag, so a new
/// concurrent suite cannot be left out by its name.
@Suite("Concurrent suites are tagged for ThreadSanitizer")
struct ConcurrentSuiteTagTests {
    /// What starts other threads or tasks in a test.
    static var startsThreads: Regex<Substring> {
        #/Thread \{|Thread\(|DispatchQueue|concurrentPerform|withTaskGroup|withThrowingTaskGroup|withDiscardingTaskGroup|Task \{|Task\.detached|async let |DispatchGroup/#
    }

    /// The test files' paths under `Tests/`: the suites' sources, not the probes, the support target or the
    /// packages a client package under Tests resolved (Tests/TraitClient/.build).
    static func testFiles() throws -> [String] {
        let tests = BuiltProduct.packageRoot.appendingPathComponent("Tests")
        return try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Probes/") && !$0.hasPrefix("ChainTraceTestSupport/") }
            .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } && !$0.hasPrefix("TraitClient/") }
    }

    @Test func everySuiteThatStartsThreadsOrTasksIsTagged() throws {
        let tests = BuiltProduct.packageRoot.appendingPathComponent("Tests")
        let files = try Self.testFiles()
            .filter { $0 != "ChainTraceTests/ConcurrentSuiteTagTests.swift" }  // its pattern is text here
        var concurrentFiles = 0
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            guard text.contains(Self.startsThreads) else { continue }
            concurrentFiles += 1
            let suites = text.components(separatedBy: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite")
            }
            for line in suites {
                #expect(
                    line.contains(".concurrent"),
                    "\(file) starts threads or tasks; its suite is not tagged .concurrent: \(line)"
                )
            }
        }
        #expect(concurrentFiles >= 40, "the scan found \(concurrentFiles) files")
    }
}
