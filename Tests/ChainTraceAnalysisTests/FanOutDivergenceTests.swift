import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// Two runs of a command whose stages fan out (`async let`, task groups) record the hops that ran at once in the
/// order the scheduler ran them, and name as the outcome whichever accepting hop opened last (or failing hop closed
/// first). Comparing runs must not call that a divergence — and must still find every real change.
///
/// Generated trees, each scheduled twice (the hops that run at once shuffled and their times jittered), are
/// compared by `Divergence.between` and by a plain reference written here: canonical trees as text, the groups of
/// hops that ran at once found from the public `Hop`s.
@Suite("Fan-out runs compared")
struct FanOutDivergenceTests {
    static func compared(_ first: Trace, _ second: Trace) -> Divergence.Kind? {
        Divergence.between(
            expected: Divergence.RunSummary(first, line: 1),
            actual: Divergence.RunSummary(second, line: 1),
            command: "c",
            commandKind: "K"
        )?.kind
    }

    @Test("the scheduler's order and choice of outcome are no divergence")
    func schedulesDoNotDiverge() {
        var reordered = 0
        var otherOutcome = 0
        for seed in SeededGenerator.seeds(300) {
            var random = SeededGenerator(seed: seed)
            let root = ScheduledTree.random(&random, atOnce: 0.6)
            let first = root.run(&random)
            let second = root.run(&random)
            if first.path != second.path { reordered += 1 }
            if first.outcome != second.outcome { otherOutcome += 1 }
            #expect(
                Self.compared(first, second) == nil,
                "seed \(seed): \(first.path) \(first.outcome) / \(second.path) \(second.outcome)"
            )
            #expect(Self.compared(first, second) == Reference.compared(first, second), "seed \(seed)")
        }
        // The property is not empty: many runs came out in another order, some named another outcome.
        #expect(reordered > 50 && otherOutcome > 5, "\(reordered) reordered, \(otherOutcome) with another outcome")
    }

    /// Each edit changes what ran or how it ended: another handler's name, two handlers that ran in turn swapped,
    /// a leaf's decision changed, a leaf moved under another handler, a group run in turn instead of at once.
    enum Edit: CaseIterable {
        case rename, swapInTurn, decide, move, serialise
    }

    @Test("real changes are still found, and found as the reference finds them", arguments: SeededGenerator.seeds(40))
    func changesAreFound(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let root = ScheduledTree.random(&random, atOnce: 0.5)
        for edit in Edit.allCases {
            for _ in 0..<8 {
                let target = Int.random(in: 0..<root.count, using: &random)
                var applied = false
                var changed = root
                switch edit {
                case .rename:
                    changed = root.editing(target) { node in
                        node.name += "x"
                        applied = true
                    }
                case .swapInTurn:
                    changed = root.editing(target) { node in
                        guard !node.atOnce, node.children.count >= 2 else { return }
                        node.children.swapAt(0, node.children.count - 1)
                        applied = true
                    }
                case .decide:
                    changed = root.editing(target) { node in
                        guard node.children.isEmpty else { return }
                        node.decision = node.decision == .accepted ? .failed : .accepted
                        applied = true
                    }
                case .move:
                    // The last leaf of a node with two children or more, moved under its first child.
                    changed = root.editing(target) { node in
                        guard node.children.count >= 2, node.children[node.children.count - 1].children.isEmpty else {
                            return
                        }
                        let leaf = node.children.removeLast()
                        if node.children[0].children.isEmpty { node.children[0].decision = .passed }
                        node.children[0].children.append(leaf)
                        applied = true
                    }
                case .serialise:
                    changed = root.editing(target) { node in
                        guard node.atOnce, node.children.count >= 2 else { return }
                        node.atOnce = false
                        applied = true
                    }
                }
                guard applied else { continue }
                let first = root.run(&random)
                let second = changed.run(&random)
                let found = Self.compared(first, second)
                #expect(
                    found == Reference.compared(first, second),
                    "seed \(seed), \(edit): \(first.hops) / \(second.hops)"
                )
                switch edit {
                case .rename, .swapInTurn:
                    #expect(found != nil, "seed \(seed), \(edit): \(first.path) / \(second.path)")
                case .decide, .move, .serialise:
                    // Another decision may leave the outcome as it was (an earlier failure, a later acceptor); the
                    // path in order hides a move when nothing ran at once; a group run in turn may run in the order
                    // the other run did: the reference judges these.
                    break
                }
            }
        }
    }

    /// Traces whose hops ran one after the other compare exactly as before: the path in order and the outcome.
    @Test("runs with nothing at once compare as before", arguments: SeededGenerator.seeds(40))
    func inTurnAsBefore(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let root = ScheduledTree.random(&random, atOnce: 0)
        let other = ScheduledTree.random(&random, atOnce: 0).editing(0) { $0.name = "Other" }
        let first = root.run(&random)
        for second in [root.run(&random), other.run(&random), root.editing(1) { $0.name += "y" }.run(&random)] {
            #expect(Self.compared(first, second) == Reference.inOrder(first, second), "seed \(seed)")
        }
    }

    /// The same trees traced for real, their fan-outs run as task groups: two runs of each compare equal, though
    /// the order of their hops and the handler their outcome names differ between runs.
    @Test("recorded fan-outs compare equal run after run")
    func recordedFanOutsCompareEqual() async throws {
        var reordered = 0
        for seed in SeededGenerator.seeds(12) {
            // Siblings started at once meet inside their hops (HandlerTree.run), so they overlap whatever the load.
            let tree = HandlerTree.random(seed: seed, chain: "fan", leafDepth: 2, atOnce: 0.8, maximumWait: .zero)
                .waiting(.milliseconds(3))
            var runs: [Trace] = []
            for _ in 0..<2 {
                let sink = InMemoryTraceSink()
                await ChainTracing.withRecorder(Recorder(sink: sink)) { _ = await tree.run() }
                let traces = sink.traces
                #expect(traces.count == 1, "seed \(seed)")
                if let trace = traces.first { runs.append(trace) }
            }
            guard runs.count == 2 else { continue }
            if runs[0].path != runs[1].path { reordered += 1 }
            #expect(Self.compared(runs[0], runs[1]) == nil, "seed \(seed): \(runs[0].path) / \(runs[1].path)")
            #expect(Self.compared(runs[0], runs[1]) == Reference.compared(runs[0], runs[1]), "seed \(seed)")
        }
        // Not asserted to be above zero: two runs of a tree may be scheduled alike (the generated runs above are
        // what makes the property non-empty).
        _ = reordered
    }
}

/// The plain reference: the comparison written out on the public model, without digests.
enum Reference {
    /// The rule before hops that ran at once were told apart: the path in order, and the outcome.
    static func inOrder(_ expected: Trace, _ actual: Trace) -> Divergence.Kind? {
        kind(expected.outcome, actual.outcome, samePath: expected.path == actual.path)
    }

    static func kind(_ expected: Outcome, _ actual: Outcome, samePath: Bool) -> Divergence.Kind? {
        switch (expected, actual) {
        case (.accepted(let before), .accepted(let after)) where before != after: return .differentHandler
        case (.accepted, .fellOffTheEnd), (.failed, .fellOffTheEnd): return .newlyUnhandled
        case (.failed(let before, let beforeError), .failed(let after, let afterError)):
            guard before == after && beforeError == afterError else { return .newlyFailing }
            return samePath ? nil : .differentPath
        case (_, .failed): return .newlyFailing
        case (.fellOffTheEnd, .accepted): return .newlyHandled
        case (.failed, _): return .noLongerFailing
        default: return samePath ? nil : .differentPath
        }
    }

    /// The comparison with hops that ran at once as sets.
    static func compared(_ expected: Trace, _ actual: Trace) -> Divergence.Kind? {
        let (left, right) = (Shape(expected), Shape(actual))
        var actualOutcome = actual.outcome
        if let left, let right, left.alternatives.contains(actual.outcome),
            right.alternatives.contains(expected.outcome)
        {
            actualOutcome = expected.outcome
        }
        let samePath = if let left, let right { left.text == right.text } else { expected.path == actual.path }
        return kind(expected.outcome, actualOutcome, samePath: samePath)
    }

    /// A trace's tree as text, the children of each hop in groups that ran at once — sorted within a group — and
    /// the outcomes it could as well have named; `nil` when no two siblings overlap or no parent is recorded.
    struct Shape {
        var text: String
        var alternatives: [Outcome]

        init?(_ trace: Trace) {
            let hops = trace.hops
            let top = hops.count
            let parents = hops.indices.map { index in hops[index].parent.flatMap { $0 < index ? $0 : nil } ?? top }
            guard parents.contains(where: { $0 != top }) else { return nil }
            var children = [[Int]](repeating: [], count: top + 1)
            for (index, parent) in parents.enumerated() { children[parent].append(index) }
            // Each hop's group: siblings overlapping (by more than a nanosecond) a sibling that started before.
            var group = [Int](repeating: -1, count: top)
            var next = 0
            var anyAtOnce = false
            for node in 0...top {
                let sorted = children[node].sorted { (hops[$0].startOffset, $0) < (hops[$1].startOffset, $1) }
                children[node] = sorted
                var end: UInt64 = 0
                for (place, child) in sorted.enumerated() {
                    let start = hops[child].startOffset
                    if place == 0 || start + 1 >= end {
                        next += 1
                        end = 0
                    } else {
                        anyAtOnce = true
                    }
                    group[child] = next
                    end = max(end, start + hops[child].inclusiveDuration)
                }
            }
            guard anyAtOnce else { return nil }
            func text(_ node: Int) -> String {
                var groups: [[Int]] = []
                for child in children[node] {
                    if let last = groups.last?.last, group[last] == group[child] {
                        groups[groups.count - 1].append(child)
                    } else {
                        groups.append([child])
                    }
                }
                let inside = groups.map { members in "{" + members.map(text).sorted().joined(separator: ",") + "}" }
                return (node == top ? "" : hops[node].handler) + "(" + inside.joined(separator: ";") + ")"
            }
            self.text = text(top)
            // The outcome's hop, found by name and decision, as `Trace` finds it.
            var alternatives: [Outcome] = []
            let outcome = trace.outcome
            let decider = hops.lastIndex { hop in
                switch outcome {
                case .accepted(let handler): hop.decision == .accepted && hop.handler == handler
                case .failed(let handler, let error):
                    hop.decision == .failed && hop.handler == handler && (hop.reason ?? "") == error
                case .fellOffTheEnd: false
                }
            }
            if let decider {
                func ancestors(_ hop: Int) -> [Int] {
                    var chain = [hop]
                    while chain.last! != top { chain.append(parents[chain.last!]) }
                    return chain
                }
                let mine = ancestors(decider)
                for hop in hops.indices where hop != decider && hops[hop].decision == hops[decider].decision {
                    let theirs = ancestors(hop)
                    // The lowest common ancestor, and the child of it on each side; none when one hop is inside the
                    // other.
                    guard let common = theirs.first(where: mine.contains), let mine = mine.firstIndex(of: common),
                        let their = theirs.firstIndex(of: common), mine > 0, their > 0
                    else { continue }
                    let (mySide, theirSide) = (ancestors(decider)[mine - 1], theirs[their - 1])
                    guard mySide != theirSide, group[mySide] == group[theirSide] else { continue }
                    let other: Outcome =
                        hops[hop].decision == .failed
                        ? .failed(at: hops[hop].handler, error: hops[hop].reason ?? "")
                        : .accepted(by: hops[hop].handler)
                    alternatives.append(other)
                }
            }
            self.alternatives = alternatives
        }
    }
}
