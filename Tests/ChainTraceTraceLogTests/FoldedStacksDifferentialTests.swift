import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Folded stacks summed by numbered stacks (one lookup a hop) against the plain way — each hop's stack joined into
/// its text and summed by that text — on generated traces that nest as random trees, with names that differ only
/// in the characters the format reserves (`a;b`, `a_b`, `a\nb`, an escape sequence, NEL, U+2028), hostile names, saturating times, several chains,
/// joined from parts cut anywhere: the same lines, in the same order, with the same values.
@Suite("Folded stacks against joined text")
struct FoldedStacksDifferentialTests {
    /// The plain model: the text of every hop's stack, summed by text, in first-seen order.
    static func plain(_ traces: [Trace]) -> [(String, UInt64)] {
        var totals: [String: UInt64] = [:]
        var order: [String] = []
        func frame(_ name: String) -> String {
            // `;`, C0 and C1 controls and DEL, and the two Unicode separators.
            String(
                String.UnicodeScalarView(
                    name.unicodeScalars.map { scalar in
                        let value = scalar.value
                        return scalar == ";" || value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028
                            || value == 0x2029 ? "_" : scalar
                    }
                )
            )
        }
        for trace in traces {
            // The frames below each hop: the hops it ran inside, by the one nesting rule (tested on its own in
            // HopNestingTests); here the joined text is the subject.
            let hops = trace.hops
            let enclosing = HopNesting.enclosing(hops)
            for (index, hop) in hops.enumerated() {
                var frames = [hop.handler]
                var outer = enclosing[index]
                while let next = outer {
                    frames.insert(hops[next].handler, at: 0)
                    outer = enclosing[next]
                }
                let stack = ([trace.chain] + frames).map(frame).joined(separator: ";")
                if totals[stack] == nil { order.append(stack) }
                let (sum, overflow) = (totals[stack] ?? 0).addingReportingOverflow(hop.selfDuration)
                totals[stack] = overflow ? .max : sum
            }
        }
        return order.map { ($0, totals[$0]!) }
    }

    static func traces(_ random: inout SeededGenerator) -> [Trace] {
        let names =
            ["a;b", "a_b", "a\nb", "a\rb", "a\u{1B}[31mb", "a\u{85}b", "a\u{2028}b", "a\tb", "A", "B", "C"]
            + (0..<3).map { _ in random.hostileName() }
        return (0..<Int.random(in: 1...80, using: &random)).map { index in
            var hops: [Hop] = []
            var cursor: UInt64 = 0
            var ends: [UInt64] = []
            for position in 0..<Int.random(in: 0...9, using: &random) {
                // Nest inside the open hops or after them, at random; now and then a time near the top.
                while let end = ends.last, random.chance(0.4) || end <= cursor {
                    ends.removeLast()
                    cursor = max(cursor, end)
                }
                let duration =
                    random.chance(0.05)
                    ? UInt64.max - UInt64.random(in: 0...10, using: &random)
                    : UInt64.random(in: 1...1_000, using: &random)
                hops.append(
                    Hop(
                        handler: random.pick(names),
                        position: position,
                        decision: .passed,
                        startOffset: cursor,
                        inclusiveDuration: duration,
                        selfDuration: random.chance(0.05) ? .max : UInt64.random(in: 0...500, using: &random)
                    )
                )
                ends.append(cursor.addingReportingOverflow(duration).overflow ? .max : cursor + duration)
                if cursor < .max { cursor += 1 }
            }
            return Trace(
                id: UInt64(index),
                commandKind: "K",
                entry: "A",
                chain: random.pick(["c", "c;d", "c_d"]),
                startTime: 0,
                hops: hops,
                outcome: .fellOffTheEnd,
                duration: cursor
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func numberedStacksGiveTheJoinedTextsSums(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let traces = Self.traces(&random)
        let expected = Self.plain(traces).map { "\($0.0) \($0.1)\n" }.joined()
        var whole = FoldedStacksExport()
        for trace in traces { whole.add(trace) }
        #expect(whole.text(unit: .nanoseconds) == expected, "seed \(seed)")
        // Cut into parts anywhere, summed apart and joined in order.
        var joined = FoldedStacksExport()
        var index = 0
        while index < traces.count {
            let end = min(traces.count, index + Int.random(in: 1...max(1, traces.count / 2), using: &random))
            var part = FoldedStacksExport()
            for trace in traces[index..<end] { part.add(trace) }
            joined.append(part)
            index = end
        }
        #expect(joined.text(unit: .nanoseconds) == expected, "seed \(seed): joined")
    }
}
