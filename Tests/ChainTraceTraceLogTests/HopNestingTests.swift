import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// The one rule exports nest hops by (``HopNesting``), on generated trees of hops laid out in time as recorders lay
/// them out: nested calls (each hop's self time its inclusive time less its children's), and stages that fan out
/// to child tasks (children overlapping; the parent's self time not reduced by them). Every hop is placed inside a
/// hop that contains its time; a tree of nested calls, and a fan-out to hops of no children of their own, come
/// back exactly — an export that took "the last hop still open" nested a sibling in its sibling. On the chrome
/// export's tracks, events nest.
@Suite("Hop nesting on generated trees")
struct HopNestingTests {
    /// A generated trace and each hop's true parent.
    struct Tree {
        var hops: [Hop] = []
        var parents: [Int?] = []
    }

    /// Lays out a subtree under `parent` from `start`; returns its end. `fansOut` lets a node run its children at
    /// once, each of them then a leaf.
    static func grow(
        _ tree: inout Tree,
        parent: Int?,
        start: UInt64,
        depth: Int,
        fansOut: Bool,
        _ random: inout SeededGenerator
    ) -> UInt64 {
        let index = tree.hops.count
        tree.hops.append(
            Hop(
                handler: "H\(index)",
                position: index,
                decision: .passed,
                startOffset: start,
                inclusiveDuration: 0,
                selfDuration: 0
            )
        )
        tree.parents.append(parent)
        let children = depth < 4 ? Int.random(in: 0...3, using: &random) : 0
        var cursor = start + UInt64.random(in: 1...5_000, using: &random)
        var nested: UInt64 = 0
        if fansOut, children >= 2, random.chance(0.5) {
            // Child tasks: each starts a little after the last, runs on its own, and may outlast the others.
            var end = cursor
            for _ in 0..<children {
                let childEnd = grow(&tree, parent: index, start: cursor, depth: 4, fansOut: false, &random)
                end = max(end, childEnd)
                cursor += UInt64.random(in: 1...3_000, using: &random)
            }
            cursor = end
        } else {
            for _ in 0..<children {
                let childStart = cursor
                cursor = grow(&tree, parent: index, start: childStart, depth: depth + 1, fansOut: fansOut, &random)
                nested += cursor - childStart
                cursor += UInt64.random(in: 0...2_000, using: &random)
            }
        }
        let end = cursor + UInt64.random(in: 1...5_000, using: &random)
        tree.hops[index].inclusiveDuration = end - start
        tree.hops[index].selfDuration = end - start - nested
        return end
    }

    static func tree(_ random: inout SeededGenerator, fansOut: Bool) -> Tree {
        var tree = Tree()
        var cursor: UInt64 = 0
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            cursor =
                grow(&tree, parent: nil, start: cursor, depth: 0, fansOut: fansOut, &random)
                + UInt64.random(in: 0...100, using: &random)
        }
        return tree
    }

    static func end(_ hop: Hop) -> UInt64 { hop.startOffset + hop.inclusiveDuration }

    @Test(arguments: SeededGenerator.seeds(200))
    func nestedCallsAndFanOutsComeBackAsRecorded(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let tree = Self.tree(&random, fansOut: seed % 2 == 1)
        let enclosing = HopNesting.enclosing(tree.hops)
        #expect(enclosing == tree.parents, "seed \(seed): \(enclosing) vs \(tree.parents)")
        for (index, parent) in enclosing.enumerated() {
            guard let parent else { continue }
            let (hop, outer) = (tree.hops[index], tree.hops[parent])
            #expect(
                parent < index && outer.startOffset <= hop.startOffset && Self.end(hop) <= Self.end(outer),
                "seed \(seed)"
            )
        }
    }

    /// Hops at any times — overlapping any way, at the limits of UInt64 — are still each placed in a hop that
    /// contains them, or at the top.
    @Test(arguments: SeededGenerator.seeds(200))
    func anyTimesPlaceEachHopInsideAHopThatContainsIt(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var start: UInt64 = 0
        let hops = (0..<Int.random(in: 0...12, using: &random)).map { index in
            start =
                random.chance(0.05)
                ? .max - UInt64.random(in: 0...3, using: &random)
                : start.saturatingAdd(UInt64.random(in: 0...50, using: &random))
            let duration = random.chance(0.05) ? UInt64.max : UInt64.random(in: 0...200, using: &random)
            return Hop(
                handler: "H",
                position: index,
                decision: .passed,
                startOffset: start,
                inclusiveDuration: duration,
                selfDuration: UInt64.random(in: 0...duration, using: &random)
            )
        }
        for (index, parent) in HopNesting.enclosing(hops).enumerated() {
            guard let parent else { continue }
            let end = hops[index].startOffset.saturatingAdd(hops[index].inclusiveDuration)
            #expect(parent < index && hops[parent].startOffset <= hops[index].startOffset, "seed \(seed)")
            #expect(hops[parent].startOffset.saturatingAdd(hops[parent].inclusiveDuration) >= end, "seed \(seed)")
        }
    }

    /// On each of a command's chrome tracks, any two hops are apart or one inside the other, and a hop is on the
    /// track of the hop it ran inside whenever no sibling of its is open there.
    @Test(arguments: SeededGenerator.seeds(200))
    func chromeTracksNest(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let tree = Self.tree(&random, fansOut: true)
        let lanes = ChromeTraceExport.lanes(of: tree.hops)
        for first in tree.hops.indices {
            for second in tree.hops.indices where second > first && lanes[first] == lanes[second] {
                let (a, b) = (tree.hops[first], tree.hops[second])
                let apart = Self.end(a) <= b.startOffset
                let inside = a.startOffset <= b.startOffset && Self.end(b) <= Self.end(a)
                #expect(apart || inside, "seed \(seed): H\(first) and H\(second) overlap on track \(lanes[first])")
            }
        }
        let fannedOut = tree.parents.indices.contains { index in
            tree.parents.indices.contains {
                $0 != index && tree.parents[$0] == tree.parents[index]
                    && tree.hops[$0].startOffset < Self.end(tree.hops[index])
                    && tree.hops[index].startOffset < Self.end(tree.hops[$0])
            }
        }
        if !fannedOut { #expect(Set(lanes) == [0], "seed \(seed): no overlap, one track") }
    }

    /// The fan-out a recorder writes, exported to OTLP: every span lies within its parent's time.
    @Test(arguments: SeededGenerator.seeds(50))
    func exportedSpansLieWithinTheirParents(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let tree = Self.tree(&random, fansOut: true)
        let trace = Trace(
            id: 1,
            commandKind: "K",
            entry: "H0",
            chain: "c",
            startTime: 1_000,
            hops: tree.hops,
            outcome: .fellOffTheEnd,
            duration: tree.hops.map(Self.end).max() ?? 0
        )
        var export = OTLPTraceExport()
        let text = String(
            decoding: OTLPTraceExport.header + export.spans(for: trace) + OTLPTraceExport.footer,
            as: UTF8.self
        )
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let spans =
            ((object["resourceSpans"] as? [[String: Any]])?.first?["scopeSpans"] as? [[String: Any]])?.first?["spans"]
            as? [[String: Any]] ?? []
        #expect(spans.count == tree.hops.count + 1, "seed \(seed)")
        let byID = Dictionary(
            spans.map { ($0["spanId"] as? String ?? "", $0) },
            uniquingKeysWith: { first, _ in first }
        )
        func time(_ span: [String: Any], _ key: String) -> UInt64 { UInt64(span[key] as? String ?? "") ?? 0 }
        for span in spans {
            guard let parentID = span["parentSpanId"] as? String, let parent = byID[parentID] else { continue }
            #expect(time(parent, "startTimeUnixNano") <= time(span, "startTimeUnixNano"), "seed \(seed)")
            #expect(
                time(span, "endTimeUnixNano") <= time(parent, "endTimeUnixNano"),
                "seed \(seed): \(span["name"] ?? "") ends after its parent"
            )
        }
    }
}
