import CGraphviz
import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceGraphviz
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// Diagrams of generated definitions and of the logs their replays write: read back with libcgraph, the
/// structure has one node per handler (registry members included) and an edge for every link the definition
/// makes; the path, profile and diff diagrams of the same chain render through libgvc without an error.
@Suite("Diagrams of generated chains", .serialized, .tags(.concurrent))
struct DiagramStructurePropertyTests {
    static func attribute(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        name.withCString { key in agget(object, UnsafeMutablePointer(mutating: key)).map { String(cString: $0) } }
    }

    /// The handler names of the nodes (by tooltip) and the pairs of names each edge joins.
    static func read(_ dot: String, names: Set<String>) -> (nodes: [String], edges: Set<[String]>)? {
        GraphvizRenderer.withGraphvizLock {
            guard let graph: UnsafeMutablePointer<Agraph_t> = dot.withCString({ agmemread($0) }) else { return nil }
            defer { agclose(graph) }
            var nodes: [String] = []
            var edges: Set<[String]> = []
            var node = agfstnode(graph)
            while let current = node {
                let name = attribute(UnsafeMutableRawPointer(current), "tooltip") ?? ""
                if names.contains(name) { nodes.append(name) }
                var edge = agfstout(graph, current)
                while let out = edge {
                    let head = attribute(UnsafeMutableRawPointer(out.pointee.node), "tooltip") ?? ""
                    if names.contains(name), names.contains(head) { edges.insert([name, head]) }
                    edge = agnxtout(graph, out)
                }
                node = agnxtnode(graph, current)
            }
            return (nodes, edges)
        }
    }

    @Test(arguments: SeededGenerator.seeds(25))
    func theStructureHasEveryHandlerAndLinkAndEveryDiagramRenders(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = GeneratedDefinition.makeBytes(&random)
        let definition = try ChainDefinition.load(bytes: bytes, file: "g.chain.json")
        let graph = ChainGraph(definition: definition)
        let names = Set(graph.handlers.map(\.name))
        let options = DiagramOptions(rowLength: 1_000, maximumHandlers: nil)
        let structure = ChainDiagram.structure(graph, options: options).text
        guard let read = Self.read(structure, names: names) else {
            Issue.record("seed \(seed): libcgraph could not read the structure")
            return
        }
        #expect(
            read.nodes.sorted() == names.sorted(),
            "seed \(seed): nodes \(read.nodes.sorted()) vs \(names.sorted())"
        )
        for link in graph.links {
            #expect(read.edges.contains([link.from, link.to]), "seed \(seed): no edge \(link.from) → \(link.to)")
        }
        _ = try GraphvizRenderer.render(structure, as: .svg)

        // Replay commands into a log, then draw its profile, one path, and the diff with a second run.
        let commands = (0..<20).map { index in
            JSONCommand(
                kind: random.pick(["Tap", "Swipe", "Coin"]),
                id: "c\(index)",
                fields: [
                    "size": .string(random.pick(["S", "M"])),
                    "weight": .integer(Int64.random(in: 1...9, using: &random)),
                ]
            )
        }
        let chain = try definition.makeChain(unknownTypes: .modelFromRules)
        func run() -> [Trace] {
            let sink = InMemoryTraceSink()
            chain.recorder = Recorder(sink: sink)
            for command in commands { _ = try? chain.send(command) }
            return sink.traces
        }
        let before = run()
        let after = run()
        let profile = ChainProfile(before)
        for dot in [
            ChainDiagram.profile(profile, over: graph).text,
            ChainDiagram.path(before[Int.random(in: 0..<before.count, using: &random)], over: graph).text,
            ChainDiagram.diff(before: profile, after: ChainProfile(after), over: graph).text,
        ] {
            #expect(Self.read(dot, names: names) != nil, "seed \(seed): libcgraph could not read a diagram")
            _ = try GraphvizRenderer.render(dot, as: .svg)
        }
    }
}

/// `focus`, `ignore` and `maximumHandlers` on generated chains and profiles: exactly the focused handlers and
/// their neighbours are drawn, never an ignored one; a profile over the maximum draws that many, the hottest; and
/// a link through hidden handlers is still drawn between the drawn ones it joins.
@Suite("Cutting diagrams down", .serialized, .tags(.concurrent))
struct DiagramCuttingPropertyTests {
    @Test(arguments: SeededGenerator.seeds(25))
    func focusIgnoreAndTheMaximumDrawExactlyWhatTheySay(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 3...14, using: &random)
        let names = (0..<count).map { "H\($0)" }
        var links: [ChainGraph.Link] = []
        for index in 1..<count {
            links.append(ChainGraph.Link(from: names[Int.random(in: 0..<index, using: &random)], to: names[index]))
        }
        let graph = ChainGraph(
            name: "cut",
            handlers: names.map { ChainGraph.Handler(name: $0) },
            links: links,
            entries: [names[0]]
        )
        let all = Set(names)

        let focus = Array(names.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
        let ignore = Array(names.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
        let options = DiagramOptions(rowLength: 1_000, maximumHandlers: nil, focus: focus, ignore: ignore)
        let dot = ChainDiagram.structure(graph, options: options).text
        guard let read = DiagramStructurePropertyTests.read(dot, names: all) else {
            Issue.record("seed \(seed): libcgraph could not read the diagram")
            return
        }
        var expected = all.subtracting(ignore)
        if !focus.isEmpty {
            var kept = Set(focus)
            for link in links where focus.contains(link.from) || focus.contains(link.to) {
                kept.formUnion([link.from, link.to])
            }
            expected.formIntersection(kept)
        }
        #expect(
            Set(read.nodes) == expected,
            "seed \(seed): focus \(focus), ignore \(ignore): drew \(read.nodes.sorted()), expected \(expected.sorted())"
        )
        // Every edge joins two drawn handlers, and a drawn handler's drawn child is joined to it.
        for edge in read.edges { #expect(expected.contains(edge[0]) && expected.contains(edge[1]), "seed \(seed)") }
        for link in links where expected.contains(link.from) && expected.contains(link.to) {
            #expect(read.edges.contains([link.from, link.to]), "seed \(seed): \(link.from) → \(link.to) missing")
        }

        // A profile with more handlers than the maximum draws the hottest ones.
        let selfTimes = Dictionary(
            uniqueKeysWithValues: names.enumerated().map { ($1, UInt64(($0 * 7_919) % 1_000 + 1)) }
        )
        let traces = names.map { name in
            Trace(
                id: 0,
                commandKind: "K",
                entry: name,
                chain: "cut",
                hops: [
                    Hop(
                        handler: name,
                        position: 0,
                        decision: .passed,
                        inclusiveDuration: selfTimes[name]!,
                        selfDuration: selfTimes[name]!
                    )
                ],
                outcome: .fellOffTheEnd,
                duration: selfTimes[name]!
            )
        }
        let maximum = Int.random(in: 1...count, using: &random)
        let profileDOT = ChainDiagram.profile(
            ChainProfile(traces),
            over: graph,
            options: DiagramOptions(rowLength: 1_000, maximumHandlers: maximum)
        ).text
        let hottest = Set(names.sorted { selfTimes[$0]! > selfTimes[$1]! }.prefix(maximum))
        let profileRead = DiagramStructurePropertyTests.read(profileDOT, names: all)
        #expect(profileRead.map { Set($0.nodes) } == hottest, "seed \(seed): max \(maximum)")
        _ = try GraphvizRenderer.render(profileDOT, as: .svg)
    }
}

/// libgvc is not thread-safe; the renderer serialises it. Renders of generated diagrams started from several
/// threads at once give exactly the bytes the same renders give one at a time, in every format; and what a path
/// or profile diagram says matches its trace and rule — fell off the end, the failing handler's error, the slow
/// handlers flagged and only those.
@Suite("Rendering from many threads, and what diagrams say", .serialized, .tags(.concurrent))
struct ConcurrentRenderingTests {
    static func graphAndTraces(_ random: inout SeededGenerator) throws -> (ChainGraph, [Trace], ChainDefinition) {
        let bytes = GeneratedDefinition.makeBytes(&random)
        let definition = try ChainDefinition.load(bytes: bytes, file: "g.chain.json")
        let chain = try definition.makeChain(unknownTypes: .modelFromRules)
        let sink = InMemoryTraceSink()
        chain.recorder = Recorder(sink: sink)
        for index in 0..<15 {
            _ = try? chain.send(
                JSONCommand(
                    kind: random.pick(["Tap", "Swipe", "Coin"]),
                    id: "c\(index)",
                    fields: [
                        "size": .string(random.pick(["S", "M"])),
                        "weight": .integer(Int64.random(in: 1...9, using: &random)),
                    ]
                )
            )
        }
        return (ChainGraph(definition: definition), sink.traces, definition)
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func parallelRendersGiveTheBytesOfSerialOnes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (graph, traces, _) = try Self.graphAndTraces(&random)
        let dots = [
            ChainDiagram.structure(graph).text, ChainDiagram.profile(ChainProfile(traces), over: graph).text,
            ChainDiagram.path(traces[0], over: graph).text,
        ]
        let formats: [GraphvizFormat] = [.svg, .png, .dot]
        let jobs = dots.flatMap { dot in formats.map { (dot, $0) } }
        let serial = try jobs.map { try GraphvizRenderer.render($0.0, as: $0.1).bytes }
        let parallel = LockedOutputs(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count * 2) { index in
            let job = jobs[index % jobs.count]
            if let bytes = try? GraphvizRenderer.render(job.0, as: job.1).bytes {
                parallel.set(index % jobs.count, bytes)
            }
        }
        for index in jobs.indices {
            #expect(
                parallel.get(index) == serial[index],
                "seed \(seed): job \(index) (\(jobs[index].1)) differs when rendered in parallel"
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func pathAndProfileDiagramsSayWhatTheTracesAndRuleSay(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (graph, traces, definition) = try Self.graphAndTraces(&random)
        for trace in traces.prefix(5) {
            let dot = ChainDiagram.path(trace, over: graph).text
            #expect(
                dot.contains("fell off the end") == (trace.outcome == .fellOffTheEnd) || trace.hops.isEmpty,
                "seed \(seed): \(trace.outcome)"
            )
            if case .failed(_, let error) = trace.outcome {
                #expect(dot.contains("error: \(DOTText.html(error))"), "seed \(seed): the error is not shown")
            }
        }
        let rule = try SlowHandlerRule.parse(random.pick(["share>20%", "p95>1us", "2x-median"]))
        let profile = ChainProfile(traces)
        let dot = ChainDiagram.profile(
            profile,
            over: graph,
            options: DiagramOptions(maximumHandlers: nil, slowRule: rule)
        ).text
        // The diagram holds handlers to the budgets the chain gives them, as a profile declaring them does: a
        // handler whose slowest hops went over a 250 ns budget (a slow or sanitized run) is flagged by both.
        var budgeted = profile
        budgeted.declareBudgets(of: definition)
        let flagged = rule.flags(in: budgeted)
        #expect(
            dot.components(separatedBy: "<b>slow:</b>").count - 1 == flagged.count,
            "seed \(seed): \(flagged.map(\.handler))"
        )
        #expect(dot.contains("no handler is slow by this rule") == flagged.isEmpty, "seed \(seed)")
    }
}

/// Outputs written by concurrent renders, one slot each.
final class LockedOutputs: @unchecked Sendable {
    // Every access holds `lock`.
    private var slots: [[UInt8]?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        if let existing = slots[index], existing != bytes { slots[index] = [] } else { slots[index] = bytes }
    }

    func get(_ index: Int) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return slots[index]
    }
}

/// Long straight chains fold into rows that read like text: generated lines longer than the row length, each row
/// at most the row length, the rows together every handler once in chain order, each row starting under the one
/// before; and libgvc lays the result out without an error. A chain that fits in a row is not folded.
@Suite("Folding long chains into rows", .serialized, .tags(.concurrent))
struct RowFoldingTests {
    /// The node ids of each `subgraph rowN { rank="same"; … }` block of `dot`, in order.
    static func rows(in dot: String) -> [[String]] {
        var rows: [[String]] = []
        var inside = false
        for line in dot.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("subgraph row") {
                inside = true
                rows.append([])
            } else if inside, trimmed == "}" {
                inside = false
            } else if inside, !trimmed.hasPrefix("rank") {
                rows[rows.count - 1] += trimmed.split(separator: ";").map { $0.trimmingCharacters() }.filter {
                    !$0.isEmpty
                }
            }
        }
        return rows
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func rowsHoldTheChainInOrderAtMostTheRowLengthEach(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...60, using: &random)
        let length = Int.random(in: 2...12, using: &random)
        let names = (0..<count).map { "S\($0)" }
        let graph = ChainGraph(
            name: "line",
            handlers: names.map { ChainGraph.Handler(name: $0) },
            links: zip(names, names.dropFirst()).map { ChainGraph.Link(from: $0, to: $1) },
            entries: [names[0]]
        )
        let dot = ChainDiagram.structure(graph, options: DiagramOptions(rowLength: length, maximumHandlers: nil)).text
        let rows = Self.rows(in: dot)
        // A chain that fits in one row is drawn as it is, unfolded.
        guard count > length else {
            #expect(rows.count <= 1, "seed \(seed): \(rows)")
            return
        }
        #expect(
            rows.allSatisfy { !$0.isEmpty && $0.count <= length },
            "seed \(seed): rows of \(rows.map(\.count)) for length \(length)"
        )
        #expect(rows.flatMap { $0 } == (0..<count).map { "h\($0)" }, "seed \(seed): \(rows)")
        #expect(
            rows.count == (count + length - 1) / length,
            "seed \(seed): \(rows.count) rows of \(count) at \(length)"
        )
        for (row, next) in zip(rows, rows.dropFirst()) {
            #expect(
                dot.contains("\(row[0]) -> \(next[0]) [style=\"invis\""),
                "seed \(seed): row \(next[0]) does not start under \(row[0])"
            )
        }
        _ = try GraphvizRenderer.render(dot, as: .svg)
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
