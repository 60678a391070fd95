import ChainTrace
import ChainTraceAnalysis
import ChainTraceGraphviz
import Foundation
import Testing

/// Each diagram kind, drawn from the fixtures, equals its reviewed golden DOT file byte for byte.
@Suite("Diagrams match their golden DOT files")
struct GoldenDiagramTests {
    @Test func structureShowsTreeEntriesObserverAndRegistryInWeightOrder() throws {
        let dot = ChainDiagram.structure(try DiagramFixtures.graph()).text
        try DiagramFixtures.expectGolden(dot, "structure.dot")
        // Registry members in weight order inside a cluster, the observer dashed, both entries marked.
        let detail = try #require(dot.range(of: "<b>DetailScreen</b>"))
        let search = try #require(dot.range(of: "<b>Search</b>"))
        #expect(detail.lowerBound < search.lowerBound)
        #expect(dot.contains("subgraph cluster_registry0"))
        #expect(dot.contains("h3 [tooltip=\"Analytics\", style=\"filled,rounded,dashed\""))
        #expect(dot.contains("entry -> h0") && dot.contains("entry -> h1"))
    }

    @Test func pathOfAFailedCommandMarksTheFailureAndGreysWhatWasNotVisited() throws {
        let dot = ChainDiagram.path(try DiagramFixtures.trace("e7"), over: try DiagramFixtures.graph()).text
        try DiagramFixtures.expectGolden(dot, "path-failed.dot")
        #expect(dot.contains("error: window is gone"))
        #expect(dot.contains("<b>AppDelegate</b><br/><font point-size=\"9\">not visited</font>"))
    }

    @Test func pathOfAnUnhandledCommandEndsInFellOffTheEnd() throws {
        let dot = ChainDiagram.path(try DiagramFixtures.trace("e8"), over: try DiagramFixtures.graph()).text
        try DiagramFixtures.expectGolden(dot, "path-fell-off.dot")
        #expect(dot.contains("<b>fell off the end</b>"))
        #expect(dot.contains("h8 -> end"))
    }

    @Test func pathOfAnAcceptedCommandNumbersHopsAndDoubleBordersTheAcceptor() throws {
        let dot = ChainDiagram.path(try DiagramFixtures.trace("e10"), over: try DiagramFixtures.graph()).text
        try DiagramFixtures.expectGolden(dot, "path-accepted.dot")
        #expect(dot.contains("#6 accepted · 1.5µs / 1.5µs"))
        #expect(dot.contains("peripheries=2"))
        // DanceFloor was registered at run time: drawn, marked as only in the log.
        #expect(dot.contains("<b>DanceFloor</b><br/><font point-size=\"9\"><i>not in the definition</i>"))
    }

    @Test func profileScalesByTimeAndStatesTheSlowRuleWithItsNumbers() throws {
        let dot = ChainDiagram.profile(
            try DiagramFixtures.profile("editor-before.traces.jsonl"),
            over: try DiagramFixtures.graph()
        ).text
        try DiagramFixtures.expectGolden(dot, "profile.dot")
        #expect(
            dot.contains(
                "slow when p95 self time &gt; 1ms, or p95 self time &gt; 5× the median handler&#39;s on enough of its hops, or over its budget"
            )
        )
        #expect(dot.contains("⚠ <b>Window</b>: p95 9µs = 7.5× the median 1.2µs &gt; 5× (4 of 4 hops over 6µs)"))
        #expect(!dot.contains("⚠ <b>Search</b>"))
    }

    @Test func diffShowsSlowerFasterAndAppearedLinks() throws {
        let dot = ChainDiagram.diff(
            before: try DiagramFixtures.profile("editor-before.traces.jsonl"),
            after: try DiagramFixtures.profile("editor-after.traces.jsonl"),
            over: try DiagramFixtures.graph()
        ).text
        try DiagramFixtures.expectGolden(dot, "diff.dot")
        #expect(dot.contains("p95 9µs → 27µs (3×)"))
        #expect(dot.contains("<i>faster</i>"))
        #expect(dot.contains("label=\"new · 2\""))
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        let profile = try DiagramFixtures.profile("editor-after.traces.jsonl")
        let first = ChainDiagram.profile(profile, over: ChainGraph(profile: profile)).text
        let second = ChainDiagram.profile(
            try DiagramFixtures.profile("editor-after.traces.jsonl"),
            over: ChainGraph(profile: profile)
        ).text
        #expect(first == second)
    }
}
