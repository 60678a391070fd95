import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Foundation
import Testing

/// Failure messages of every assertion, on traces whose handler names, reasons, errors, ids and kinds hold
/// anything — newlines, escape sequences, bidi overrides, NUL — are printed to a terminal: no character of the
/// data acts there (the only controls left are the message's own newlines), each hop stays on its one line, and
/// the hop table's columns line up.
@Suite("Failure messages on hostile names")
struct HostileFailureTextTests {
    /// Scalars a terminal acts on rather than shows, as the CLI's tests count them; the newline aside.
    static func active(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
            default: false
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func noDataActsOnTheTerminalAndHopsStayOnTheirLines(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        // Distinct names: a path of 1–5 hops.
        var names: [String] = []
        while names.count < Int.random(in: 1...5, using: &random) {
            // A letter first: a combining mark at a name's start would join the space before it into one character.
            let name = "H" + random.hostileName(maximumLength: 6, minimumLength: 1) + "·\(names.count)"
            names.append(name)
        }
        let ending = random.pick([Decision.accepted, .failed, .passed])
        let hops = names.enumerated().map { position, name in
            Hop(
                handler: name,
                position: position,
                decision: position == names.count - 1 ? ending : .passed,
                reason: random.chance(0.5) ? random.hostileName() : nil,
                inclusiveDuration: 10,
                selfDuration: 5
            )
        }
        let outcome: Outcome =
            switch ending {
            case .accepted: .accepted(by: names.last!)
            case .failed: .failed(at: names.last!, error: random.hostileName())
            default: .fellOffTheEnd
            }
        let trace = Trace(
            id: 1,
            commandKind: random.hostileName(),
            commandID: random.chance(0.5) ? random.hostileName() : nil,
            entry: names[0],
            chain: random.hostileName(),
            hops: hops,
            outcome: outcome,
            duration: 10
        )
        let other = random.hostileName(minimumLength: 1) + "·x"
        let messages = [
            verifyPath(trace, names.reversed() + [other]),
            verifyHandled(trace, by: other),
            verifyVisited(trace, other),
            verifyVisited(trace, names[0], false),
            verifyDecision(trace, other, .accepted),
            verifyDecision(trace, names[0], .continued),
            verifyUnhandled(trace),
            verifyFailed(trace, at: other, error: random.hostileName()),
            verifyNoHandlerSlower(than: .zero, in: [trace]),
        ].compactMap { $0 }
        #expect(messages.count >= 7, "seed \(seed)")
        for message in messages {
            #expect(
                Self.active(message).isEmpty,
                "seed \(seed): \(Self.active(message).map { String($0.value, radix: 16) }) in \(message)"
            )
            // The hop table: one line per hop, and the decision column at the same place on each.
            let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
            guard let header = lines.firstIndex(where: { $0.hasPrefix("  hops of ") }) else { continue }
            let rows = lines[(header + 1)...].prefix(hops.count)
            #expect(rows.count == hops.count && rows.allSatisfy { $0.hasPrefix("    ") }, "seed \(seed): \(message)")
            let columns = Set(
                rows.compactMap { row -> Int? in
                    guard
                        let range = row.range(of: "  passed  ") ?? row.range(of: "  accepted  ")
                            ?? row.range(of: "  failed  ")
                    else { return nil }
                    return row.distance(from: row.startIndex, to: range.lowerBound)
                }
            )
            #expect(columns.count == 1, "seed \(seed): decisions not aligned in \(message)")
        }
    }
}
