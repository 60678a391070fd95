public import ChainTrace
import ChainTraceJSON

/// Sums traces into Brendan Gregg's folded stacks — `chain;H1;H2;H3 <self time>` per line — for flamegraph.pl,
/// speedscope and inferno.
///
/// A hop's stack is the chain, then the hops it ran inside (a passed or continued hop's inclusive time covers
/// the hops after it), then the hop; its value is the hop's self time. Identical stacks are summed, so memory is
/// the number of distinct paths, not of traces. Values are whole microseconds (rounded once per line, so the
/// lines of a log add up to its self time within half a microsecond each) or, with ``Unit/nanoseconds``, exact.
public struct FoldedStacksExport: Sendable {
    /// The unit of each line's value.
    public enum Unit: String, Sendable, CaseIterable {
        case microseconds, nanoseconds
    }

    private var totals: [String: UInt64] = [:]
    private var order: [String] = []

    /// Starts an empty export.
    public init() {}

    /// Adds one trace's hops.
    public mutating func add(_ trace: Trace) {
        var open: [(name: String, end: UInt64)] = []
        for hop in trace.hops {
            while let last = open.last, last.end <= hop.startOffset { open.removeLast() }
            let stack = ([trace.chain] + open.map(\.name) + [hop.handler]).map(Self.frame).joined(separator: ";")
            if totals[stack] == nil { order.append(stack) }
            totals[stack, default: 0] = totals[stack, default: 0].saturatingAdd(hop.selfDuration)
            open.append((hop.handler, hop.startOffset.saturatingAdd(hop.inclusiveDuration)))
        }
    }

    /// Adds what `later` summed from the traces that came after these — how the sums of parts of a log read at
    /// once join, in log order, into the sums of the whole log (stacks keep the order they first appeared in).
    public mutating func append(_ later: FoldedStacksExport) {
        for stack in later.order {
            let value = later.totals[stack] ?? 0
            if let total = totals[stack] {
                totals[stack] = total.saturatingAdd(value)
            } else {
                order.append(stack)
                totals[stack] = value
            }
        }
    }

    /// The lines, in the order their stacks first appeared, each ending in a newline.
    public func text(unit: Unit = .microseconds) -> String {
        var text = ""
        for stack in order {
            let nanoseconds = totals[stack] ?? 0
            let value = unit == .nanoseconds ? nanoseconds : nanoseconds / 1000 + (nanoseconds % 1000 >= 500 ? 1 : 0)
            text += "\(stack) \(value)\n"
        }
        return text
    }

    /// A frame name without the characters the format reserves: `;` separates frames and a newline ends a line,
    /// so both become `_` (spaces are fine: a line's value is after its last space).
    ///
    /// By scalars: `"\r\n"`, or a newline followed by a combining mark, is one `Character` that equals neither.
    static func frame(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            scalars.append(scalar == ";" || scalar == "\n" || scalar == "\r" ? "_" : scalar)
        }
        return String(scalars)
    }
}
