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

    /// A stack: the stack it extends (-1: none, a chain's root) and its last frame's name as recorded.
    private struct Stack: Hashable, Sendable {
        var parent: Int
        var name: String
    }

    /// Each stack met, numbered in the order met (a stack's parent always has a lower number).
    private var numbers: [Stack: Int] = [:]
    private var stacks: [Stack] = []
    /// Per stack number: the summed self time of the hops whose stack it is.
    private var totals: [UInt64] = []
    /// The stacks that are some hop's, in the order first met: the lines.
    private var order: [Int] = []
    private var isLine: [Bool] = []
    /// Where each hop of the trace being added ran (kept from trace to trace), and each one's stack.
    private var nesting = HopNesting()
    private var hopStacks: [Int] = []

    /// Starts an empty export.
    public init() {}

    /// The number of the stack `name` on top of `parent`, numbered now if new.
    private mutating func number(_ name: String, on parent: Int) -> Int {
        let stack = Stack(parent: parent, name: name)
        if let number = numbers[stack] { return number }
        let number = stacks.count
        numbers[stack] = number
        stacks.append(stack)
        totals.append(0)
        isLine.append(false)
        return number
    }

    /// Adds `value` to the line of stack `number`.
    private mutating func add(_ value: UInt64, to number: Int) {
        if !isLine[number] {
            isLine[number] = true
            order.append(number)
        }
        totals[number] = totals[number].saturatingAdd(value)
    }

    /// Adds one trace's hops.
    ///
    /// Stacks are numbered as they are met, by the stack below and the frame's name, so a hop costs one lookup
    /// rather than the joined text of its stack; the text is made once per stack, by ``text(unit:)``.
    public mutating func add(_ trace: Trace) {
        let root = number(trace.chain, on: -1)
        let hops = trace.hops
        // Each hop's stack is the stack of the hop it ran inside (HopNesting), and its own name.
        nesting.place(hops)
        hopStacks.removeAll(keepingCapacity: true)
        for index in hops.indices {
            var below = root
            if let enclosing = nesting.parents[index] { below = hopStacks[enclosing] }
            let stack = number(hops[index].handler, on: below)
            add(hops[index].selfDuration, to: stack)
            hopStacks.append(stack)
        }
    }

    /// Adds what `later` summed from the traces that came after these — how the sums of parts of a log read at
    /// once join, in log order, into the sums of the whole log (stacks keep the order they first appeared in).
    public mutating func append(_ later: FoldedStacksExport) {
        // Later's numbers in this export: parents are numbered before their children, so in one pass.
        var mapped = [Int](repeating: 0, count: later.stacks.count)
        for (index, stack) in later.stacks.enumerated() {
            mapped[index] = number(stack.name, on: stack.parent < 0 ? -1 : mapped[stack.parent])
        }
        for stack in later.order { add(later.totals[stack], to: mapped[stack]) }
    }

    /// The lines, in the order their stacks first appeared, each ending in a newline.
    ///
    /// Names that differ only in the characters the format reserves (`a;b` and `a_b`) print as one stack: their
    /// lines are summed, at the place the first of them appeared.
    public func text(unit: Unit = .microseconds) -> String {
        // In number order, so a stack's parent is always made first (no recursion, however deep the nesting).
        var texts: [String] = []
        texts.reserveCapacity(stacks.count)
        for stack in stacks {
            texts.append(stack.parent < 0 ? Self.frame(stack.name) : texts[stack.parent] + ";" + Self.frame(stack.name))
        }
        var lines: [String] = []
        var sums: [String: UInt64] = [:]
        for number in order {
            let line = texts[number]
            if let sum = sums[line] {
                sums[line] = sum.saturatingAdd(totals[number])
            } else {
                lines.append(line)
                sums[line] = totals[number]
            }
        }
        var text = ""
        for line in lines {
            let nanoseconds = sums[line] ?? 0
            let value = unit == .nanoseconds ? nanoseconds : nanoseconds / 1000 + (nanoseconds % 1000 >= 500 ? 1 : 0)
            text += "\(line) \(value)\n"
        }
        return text
    }

    /// A frame name without the characters the format reserves: `;` separates frames and a newline ends a line,
    /// so both become `_` (spaces are fine: a line's value is after its last space). So does every other control
    /// character (an escape sequence would act on the terminal the lines are shown in) and the Unicode line and
    /// paragraph separators (which some line readers split at).
    ///
    /// By scalars: `"\r\n"`, or a newline followed by a combining mark, is one `Character` that equals neither.
    static func frame(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let category = scalar.properties.generalCategory
            let reserved =
                scalar == ";" || category == .control || category == .lineSeparator || category == .paragraphSeparator
            scalars.append(reserved ? "_" : scalar)
        }
        return String(scalars)
    }
}
