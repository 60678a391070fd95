import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// A small responder chain for the assertions to look at.
func makeEditorChain() throws -> Chain<String, String> {
    struct Crash: Error, CustomStringConvertible { var description: String { "window is gone" } }
    return try Chain(
        "editor",
        handlers: [
            Handler("Cell") { $0 == "edit" ? .accept("Cell") : .pass },
            .observer("Analytics") { _ in },
            Handler("List") { $0 == "delete" ? .accept("List") : .pass(because: "not a list action") },
            Handler("Window") { command in
                if command == "crash" { throw Crash() }
                return command == "close" ? .accept("Window") : .pass
            },
        ]
    )
}

@Suite("ChainTraceTesting assertions", .tags(.concurrent))
struct ExpectationTests {
    @Test func passingAssertionsReportNothing() throws {
        let chain = try makeEditorChain()
        let traces = try captureTraces {
            _ = try chain.send("delete")
            _ = try chain.send("nothing")
            _ = try? chain.send("crash")
        }
        #expect(traces.count == 3)
        expectHandled(traces[0], by: "List")
        expectPath(traces[0], ["Cell", "Analytics", "List"])
        expectVisited(traces[0], "Analytics")
        expectNotVisited(traces[0], "Window")
        expectDecision(traces[0], "Analytics", .continued)
        expectUnhandled(traces[1])
        expectFailed(traces[2], at: "Window", error: "gone")
        expectNoHandlerSlower(than: .seconds(1), in: traces)
    }

    @Test func pathFailureShowsBothPathsAlignedWithTheFirstDifferenceAndTheHops() throws {
        let chain = try makeEditorChain()
        let traces = try captureTraces { _ = try chain.send("close") }
        let line = #line + 2
        withKnownIssue {
            expectPath(traces[0], ["Cell", "List", "Window"])
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID.hasSuffix("ExpectationTests.swift") == true
        }
        let message = try #require(verifyPath(traces[0], ["Cell", "List", "Window"]))
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Path differs:")
        #expect(lines[1] == "  expected: Cell → List → Window")
        #expect(lines[2] == "  actual:   Cell → Analytics → List → Window")
        #expect(lines[3] == "                   ^ first difference, hop 2")
        #expect(lines[4] == "  hops of the command (String):")
        #expect(lines[5].hasPrefix("    1. Cell       passed     self "))
        #expect(lines[6].hasPrefix("    2. Analytics  continued  self "))
        #expect(lines[7].hasSuffix("(not a list action)"))
        #expect(lines[9] == "  outcome: accepted by Window")
    }

    @Test func outcomeFailuresSayWhatHappenedInstead() throws {
        let chain = try makeEditorChain()
        let traces = try captureTraces {
            _ = try chain.send("edit")
            _ = try? chain.send("crash")
        }
        #expect(
            verifyHandled(traces[0], by: "List")?.hasPrefix(
                "Expected \"List\" to accept the command; \"Cell\" accepted it.\n"
            ) == true
        )
        #expect(
            verifyUnhandled(traces[0])?.hasPrefix("Expected no handler to take the command; \"Cell\" accepted it.")
                == true
        )
        #expect(
            verifyFailed(traces[1], at: "Window", error: "jammed")?.hasPrefix(
                "Expected the command to fail at \"Window\" with an error containing \"jammed\"; it failed at \"Window\": window is gone (Crash)."
            ) == true
        )
        #expect(
            verifyDecision(traces[0], "List", .passed)?.hasPrefix(
                "Expected \"List\" to decide passed; the command never reached it."
            ) == true
        )
        #expect(
            verifyVisited(traces[0], "Cell", false)?.hasPrefix(
                "Expected the command not to visit \"Cell\"; its path: Cell."
            ) == true
        )
        withKnownIssue {
            expectHandled(traces[0], by: "List")
            expectUnhandled(traces[0])
            expectFailed(traces[1], at: "List")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Expected") }
        }
    }

    @Test func budgetFailureNamesTheSlowHandlersAndTheirTimes() throws {
        let chain = try Chain<Int, Int>(
            "slow",
            handlers: [
                Handler("Fast") { _ in .pass },
                Handler("Sleepy") { value in
                    let deadline = ContinuousClock.now + .milliseconds(2)
                    while ContinuousClock.now < deadline {}
                    return .accept(value)
                },
            ]
        )
        let traces = try captureTraces { for value in 0..<5 { _ = try chain.send(value) } }
        let message = try #require(verifyNoHandlerSlower(than: .milliseconds(1), in: traces, percentile: 95))
        #expect(message.hasPrefix("Expected no handler's p95 self time over 1ms in 5 traces:\n"))
        let lines = message.split(separator: "\n").dropFirst()
        let sleepy = try #require(lines.first { $0.hasPrefix("  Sleepy: ") }, "\(message)")
        let reported = sleepy.split(separator: " ")[1]
        #expect(reported.hasSuffix("ms") && (Double(reported.dropLast(2)) ?? 0) >= 2, "2 ms of busy work, measured")
        // "Fast" does nothing, but a loaded machine may preempt it for longer than the budget: it is named exactly
        // when its own measured times say it was over (p95 of 5 is the slowest).
        let fastSlowest = traces.compactMap { $0.hop("Fast")?.selfDuration }.max() ?? 0
        #expect(message.contains("Fast") == (fastSlowest > 1_000_000), "\(message)")
        #expect(message.hasSuffix(" over 5 hops\n"))
        // One trace, one hop: the nouns agree.
        let one = try #require(verifyNoHandlerSlower(than: .milliseconds(1), in: [traces[0]], percentile: 95))
        #expect(one.hasPrefix("Expected no handler's p95 self time over 1ms in 1 trace:\n"), "\(one)")
        #expect(one.contains("\n  Sleepy: "), "\(one)")
        #expect(one.hasSuffix(" over 1 hop\n"), "\(one)")
        withKnownIssue { expectNoHandlerSlower(than: .milliseconds(1), in: traces) }
    }

    @Test func lintAssertionListsTheFindings() throws {
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        expectLintClean(definitionAt: "/\(root)/Samples/VendingMachine/vending-machine.chain.json")
        let message = try #require(
            verifyLintClean(definitionAt: "/\(root)/Tests/ChainTraceCLITests/Fixtures/warnings-only.chain.json")
        )
        #expect(message.contains("4 findings"))
        #expect(message.contains("[shadowed]"))
        #expect(
            verifyLintClean(
                definitionAt: "/\(root)/Tests/ChainTraceCLITests/Fixtures/warnings-only.chain.json",
                allowingWarnings: true
            ) == nil
        )
    }

    @Test func captureIsScopedToTheTaskSoParallelTestsDoNotMix() async throws {
        let chain = try makeEditorChain()
        try await withThrowingTaskGroup(of: [Trace].self) { group in
            for command in ["edit", "delete", "close", "nothing"] {
                group.addTask {
                    try captureTraces {
                        for _ in 0..<50 { _ = try chain.send(command) }
                    }
                }
            }
            for try await traces in group {
                #expect(traces.count == 50)
                #expect(Set(traces.map(\.path)).count == 1, "each task saw only its own command's traces")
            }
        }
        #expect(chain.recorder.isOn == false, "the chain's own recorder stays off")
    }
}
