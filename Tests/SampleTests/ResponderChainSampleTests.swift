import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import ChainTraceTraceLog
import Foundation
import Testing

@Suite("The ResponderChain sample, run as a user runs it")
struct ResponderChainSampleTests {
    let sample = BuiltProduct(name: "ResponderChain")

    /// Runs all three configurations; returns what the sample printed and each app's traces by command id.
    func run() throws -> (lines: [String], traces: [String: [String: Trace]], directory: URL) {
        let directory = TestFiles.directory.appendingPathComponent("responders-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = try sample.run(["--out-dir", directory.path])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        var traces: [String: [String: Trace]] = [:]
        for app in ["app-a", "app-b", "app-c"] {
            let log = try TraceLogReader.readAll(
                path: directory.appendingPathComponent("responder-chain-\(app).traces.jsonl").path
            )
            traces[app] = Dictionary(uniqueKeysWithValues: log.traces.map { ($0.commandID ?? "?", $0) })
        }
        return (output.standardOutput.split(separator: "\n").map(String.init), traces, directory)
    }

    @Test func eachConfigurationLoadsItsOwnModules() throws {
        let (_, traces, directory) = try run()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try #require(traces["app-a"])
        let b = try #require(traces["app-b"])
        let c = try #require(traces["app-c"])
        // A favourite reaches the favourites module only in app B; in A and C nobody takes it.
        expectHandled(try #require(b["r03"]), by: "Favorites")
        expectUnhandled(try #require(a["r03"]))
        expectNotVisited(try #require(c["r03"]), "Favorites")
        // Help is answered by the support chat of app C only.
        expectHandled(try #require(c["r06"]), by: "SupportChat")
        expectUnhandled(try #require(a["r06"]))
        // Analytics records and passes on in A and B; C has none.
        let deep = try #require(a["r06"])
        expectDecision(deep, "Analytics", .continued)
        expectPath(deep, ["Cell", "List", "Navigation", "Analytics", "Window", "AppDelegate"])
        expectNotVisited(try #require(c["r06"]), "Analytics")
    }

    @Test func commandsStartAtTheirLeafAndClimbTheTree() throws {
        let (_, traces, directory) = try run()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try #require(traces["app-a"])
        expectPath(try #require(a["r04"]), ["Toolbar"])
        expectHandled(try #require(a["r05"]), by: "Navigation")
        expectPath(try #require(a["r05"]), ["Toolbar", "Navigation"])
        #expect(a["r05"]?.entry == "Toolbar")
        #expect(a["r02"]?.entry == "Cell")
    }

    @Test func aModulePluggedInWhileRunningTakesTheCommandItCouldNotBefore() throws {
        let (lines, traces, directory) = try run()
        defer { try? FileManager.default.removeItem(at: directory) }
        for app in ["app-a", "app-b", "app-c"] {
            let before = try #require(traces[app]?["r07"])
            let after = try #require(traces[app]?["r08"])
            expectUnhandled(before)
            expectNotVisited(before, "Themes")
            expectHandled(after, by: "Themes")
            #expect(after.chainVersion > before.chainVersion)
        }
        #expect(lines.contains { $0.contains("line 8: insert Themes before Window") })
    }

    @Test func theDryRunNamesWhoWouldTakeACommandAndEachAppWritesADiagram() throws {
        let (lines, _, directory) = try run()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(
            lines.contains(
                "app-c: who would take \"help\" from Cell? SupportChat (asks Cell → List → Navigation → Window → SupportChat)"
            )
        )
        #expect(
            lines.contains(
                "app-a: who would take \"help\" from Cell? nobody (asks Cell → List → Navigation → Analytics → Window → AppDelegate)"
            )
        )
        for app in ["app-a", "app-b", "app-c"] {
            let svg = try String(
                contentsOf: directory.appendingPathComponent("responder-chain-\(app).svg"),
                encoding: .utf8
            )
            #expect(svg.contains("Profile of app"))
            #expect(svg.contains("not in the definition"))  // Themes, plugged in at run time
        }
    }
}
