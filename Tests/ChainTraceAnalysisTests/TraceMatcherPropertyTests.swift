import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// Two runs of the same commands, the second changed in known ways — another acceptor, another path, newly
/// unhandled, newly failing, newly handled, no longer failing, commands dropped and added, the order shuffled in
/// places — and the matcher finds exactly those changes, each of its kind, whatever the order the traces come in.
@Suite("Matching two runs against known changes")
struct TraceMatcherPropertyTests {
    static let handlers = ["A", "B", "C", "D"]

    static func trace(_ id: String, path: [String], outcome: Outcome) -> Trace {
        let hops = path.enumerated().map { position, name -> Hop in
            let last = position == path.count - 1
            let decision: Decision =
                !last
                ? .passed
                : outcome.acceptingHandler != nil ? .accepted : outcome.failingHandler != nil ? .failed : .passed
            return Hop(handler: name, position: position, decision: decision, inclusiveDuration: 1, selfDuration: 1)
        }
        return Trace(
            id: 0,
            commandKind: "K",
            commandID: id,
            entry: path.first ?? "A",
            chain: "c",
            hops: hops,
            outcome: outcome,
            duration: 1
        )
    }

    /// A change to make to a command's second run, and the divergence it must give (`nil`: none).
    enum Change: CaseIterable {
        case none, otherAcceptor, otherPath, unhandled, failing, handled, recovered

        /// The first and second run of one command, for this change.
        func runs(_ id: String) -> (Trace, Trace, Divergence.Kind?) {
            let t = TraceMatcherPropertyTests.trace
            switch self {
            case .none: return (t(id, ["A", "B"], .accepted(by: "B")), t(id, ["A", "B"], .accepted(by: "B")), nil)
            case .otherAcceptor:
                return (
                    t(id, ["A", "B"], .accepted(by: "B")), t(id, ["A", "B", "C"], .accepted(by: "C")), .differentHandler
                )
            case .otherPath:
                return (t(id, ["A", "C"], .accepted(by: "C")), t(id, ["B", "C"], .accepted(by: "C")), .differentPath)
            case .unhandled:
                return (
                    t(id, ["A", "B"], .accepted(by: "B")), t(id, ["A", "B", "C", "D"], .fellOffTheEnd), .newlyUnhandled
                )
            case .failing:
                return (
                    t(id, ["A", "B"], .accepted(by: "B")), t(id, ["A"], .failed(at: "A", error: "e")), .newlyFailing
                )
            case .handled:
                return (
                    t(id, ["A", "B", "C", "D"], .fellOffTheEnd), t(id, ["A", "B"], .accepted(by: "B")), .newlyHandled
                )
            case .recovered:
                return (
                    t(id, ["A"], .failed(at: "A", error: "e")), t(id, ["A", "B"], .accepted(by: "B")), .noLongerFailing
                )
            }
        }
    }

    /// The two runs matched as logs read side by side give them, a trace of each a step, each on line index + 2.
    static func matched(_ first: [Trace], _ second: [Trace], placesByStart: Bool = false) -> TraceMatcher {
        var matcher = TraceMatcher(placesByStart: placesByStart)
        for index in 0..<max(first.count, second.count) {
            matcher.add(
                first: index < first.count ? (first[index], line: index + 2) : nil,
                second: index < second.count ? (second[index], line: index + 2) : nil
            )
        }
        matcher.finish()
        return matcher
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func everyChangeIsFoundAsItsKindAndNothingElse(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var first: [Trace] = []
        var second: [Trace] = []
        var expected: [String: Divergence.Kind] = [:]
        for index in 0..<Int.random(in: 1...60, using: &random) {
            let id = "c\(index)"
            let change = random.pick(Change.allCases)
            let (before, after, kind) = change.runs(id)
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                first.append(before)
                expected[id] = .missing
            case 1:
                second.append(after)
                expected[id] = .unexpected
            default:
                first.append(before)
                second.append(after)
                expected[id] = kind
            }
        }
        // The second run in another order here and there, as concurrent senders leave it.
        for _ in 0..<Int.random(in: 0...5, using: &random) where second.count > 1 {
            let at = Int.random(in: 0..<(second.count - 1), using: &random)
            second.swapAt(at, Int.random(in: at..<min(second.count, at + 4), using: &random))
        }
        let matcher = Self.matched(first, second)
        let found = Dictionary(
            matcher.divergences.map { ($0.command, $0.kind) },
            uniquingKeysWith: { first, _ in first }
        )
        #expect(matcher.divergences.count == found.count, "seed \(seed): a command reported twice")
        #expect(
            found == expected.compactMapValues { $0 },
            "seed \(seed): \(found) vs \(expected.compactMapValues { $0 })"
        )
        let both = Set(first.compactMap(\.commandID)).intersection(second.compactMap(\.commandID))
        #expect(matcher.compared == both.count, "seed \(seed)")
        #expect(matcher.total == found.count, "seed \(seed)")
    }

    /// Ids that repeat (a retried command, ids that restart), commands with no id, ids written like a place
    /// (`#3`), on chains named apart (two configurations of one app): the k-th command with an id in one run pairs
    /// with the k-th with it in the other, whatever the
    /// order the runs interleave in; id-less commands pair by place; nothing is lost or paired twice. Every pair
    /// here differs (another acceptor), so each shows as a divergence naming both lines.
    @Test(arguments: SeededGenerator.seeds(60))
    func repeatedIdsPairInOrderAndNothingIsLost(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pool = ["a", "b", "c", "#2", "#3"]
        func run(_ count: Int, path: [String]) -> [Trace] {
            (0..<count).map { _ in
                let id: String? = random.chance(0.25) ? nil : random.pick(pool)
                return Self.trace(id ?? "", path: path, outcome: .accepted(by: path.last!)).withID(
                    id,
                    chain: random.pick(["c", "audit"])
                )
            }
        }
        let first = run(Int.random(in: 0...12, using: &random), path: ["A", "B"])
        let second = run(Int.random(in: 0...12, using: &random), path: ["A", "B", "C"])

        // The oracle: each run's keys (an id, else its place) in order; a key's occurrences zipped.
        // The chain's name is no part of the key: runs on configurations whose chains are named apart compare.
        enum Key: Hashable {
            case id(String)
            case place(Int)
        }
        func keys(_ traces: [Trace]) -> [Key: [Int]] {
            var keys: [Key: [Int]] = [:]
            for (index, trace) in traces.enumerated() {
                keys[trace.commandID.map(Key.id) ?? .place(index + 1), default: []].append(index + 2)
            }
            return keys
        }
        let (firstKeys, secondKeys) = (keys(first), keys(second))
        var pairs: Set<[Int]> = []
        var missing: Set<Int> = []
        var unexpected: Set<Int> = []
        for key in Set(firstKeys.keys).union(secondKeys.keys) {
            let (lines, others) = (firstKeys[key] ?? [], secondKeys[key] ?? [])
            for (line, other) in zip(lines, others) { pairs.insert([line, other]) }
            missing.formUnion(lines.dropFirst(others.count))
            unexpected.formUnion(others.dropFirst(lines.count))
        }

        let matcher = Self.matched(first, second)
        let found = matcher.divergences
        #expect(
            Set(
                found.filter { $0.kind == .differentHandler }.compactMap { d in
                    d.expected?.line.flatMap { e in d.actual?.line.map { [e, $0] } }
                }
            ) == pairs,
            "seed \(seed)"
        )
        #expect(Set(found.filter { $0.kind == .missing }.compactMap { $0.expected?.line }) == missing, "seed \(seed)")
        #expect(
            Set(found.filter { $0.kind == .unexpected }.compactMap { $0.actual?.line }) == unexpected,
            "seed \(seed)"
        )
        #expect(found.count == pairs.count + missing.count + unexpected.count, "seed \(seed): a trace reported twice")
        #expect(matcher.compared == pairs.count, "seed \(seed)")
        // A divergence names its command as given: an id as written, an id-less command by `#` and its place.
        for divergence in found {
            let line = divergence.expected?.line ?? divergence.actual?.line ?? 0
            let trace = divergence.expected != nil ? first[line - 2] : second[line - 2]
            #expect(divergence.command == trace.commandID ?? "#\(line - 1)", "seed \(seed)")
        }
    }
}

extension Trace {
    /// This trace with command id `id` (`nil`: none), of `chain`.
    fileprivate func withID(_ id: String?, chain: String) -> Trace {
        Trace(
            id: self.id,
            commandKind: commandKind,
            commandID: id,
            entry: entry,
            chain: chain,
            hops: hops,
            outcome: outcome,
            duration: duration
        )
    }
}
