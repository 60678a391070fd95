import ChainTraceFastPath
import ChainTrace
import ChainTraceJSON

/// A command line's fields kept as text: the line's members other than kind, id and entry, copied byte for byte
/// (values as written, in the line's order). What a replay hands the trace log as each command's payload, so a
/// line is not parsed into a tree a second time nor the tree written out again (measured: the two were half the
/// cost of `replay --trace-out` on a flat stream).
///
/// The text is kept in the object's own allocation (``InlineBytes``): the class has no stored property.
final class JSONFieldsText: EncodedPayload {
    var text: [UInt8]? { InlineBytes.withBytes(of: self) { Array($0) } }

    var value: JSONValue? {
        let parsed: JSONValue? = InlineBytes.withBytes(of: self) { try? JSONParser.parse($0) }
        return parsed ?? [:]
    }

    var keepsText: Bool { true }

    func withKeptText<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned? {
        InlineBytes.withBytes(of: self, body)
    }

    /// The fields of `line` — a command line the stream reader's fast decoder accepted, whose kind, id and
    /// entry members lie at `outside` (empty ranges for those it lacks) — as text: the line between its braces
    /// with those members and the commas beside them cut out, each run of fields copied as it is. The line was
    /// walked once already, so it is not walked again (walking it a second time, skipping every value, was a
    /// quarter of `replay --trace-out`'s time on the benchmark's *varied* stream shape).
    static func fields(ofLine line: UnsafeBufferPointer<UInt8>, outside: (Range<Int>, Range<Int>, Range<Int>)) -> JSONFieldsText {
        var open = 0
        while open < line.count, line[open] != UInt8(ascii: "{") { open &+= 1 }
        var close = line.count &- 1
        while close > open, line[close] != UInt8(ascii: "}") { close &-= 1 }
        // The three cuts in the line's order, empty ones last, sorted in place: filtering and sorting an array was
        // two allocations a command, and `replay --trace-out` of the million-line *nested* file took 1.96–2.30 s
        // (best–median of 3) with them, 1.73–1.78 s (of 4) without.
        var cuts = outside
        func order(_ first: inout Range<Int>, _ second: inout Range<Int>) {
            if first.isEmpty || (!second.isEmpty && second.lowerBound < first.lowerBound) { swap(&first, &second) }
        }
        order(&cuts.0, &cuts.1)
        order(&cuts.1, &cuts.2)
        order(&cuts.0, &cuts.1)
        // The text is at most the line: its braces, the runs of fields between them, and a comma between two runs
        // where a cut member (and its own comma) stood. The room is checked as it is filled all the same.
        let room = line.count &+ 2
        return InlineBytes.make(JSONFieldsText.self, capacity: room) { text in
            var count = 0
            func put(_ byte: UInt8) {
                precondition(count < room, "the fields' text fits its line")
                text[count] = byte
                count &+= 1
            }
            put(UInt8(ascii: "{"))
            /// Appends the fields between two cut members (or a brace), without the separators that stood beside
            /// them.
            func appendFields(from start: Int, to end: Int) {
                var from = start
                var to = max(end, start)
                while from < to, Self.isSeparator(line[from]) { from &+= 1 }
                while to > from, Self.isSeparator(line[to &- 1]) { to &-= 1 }
                guard from < to else { return }
                if count > 1 { put(UInt8(ascii: ",")) }
                precondition(to &- from <= room &- count, "the fields' text fits its line")
                (text + count).update(from: line.baseAddress! + from, count: to &- from)
                count &+= to &- from
            }
            var start = open &+ 1
            func cut(_ cut: Range<Int>) {
                guard !cut.isEmpty else { return }
                appendFields(from: start, to: cut.lowerBound)
                start = cut.upperBound
            }
            cut(cuts.0)
            cut(cuts.1)
            cut(cuts.2)
            appendFields(from: start, to: close)
            put(UInt8(ascii: "}"))
            return count
        }
    }

    /// White space or a comma: what may stand between a member and the next (a member itself never starts or
    /// ends with one).
    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}

extension JSONCommand {
    /// The fields as text, for a command read from a stream line (``fields`` otherwise).
    package func fieldsText() -> (any EncodedPayload)? {
        guard storage.fieldsInLine else { return nil }
        let outside = storage.membersOutsideFields
        return storage.withLine { JSONFieldsText.fields(ofLine: $0, outside: outside) }
    }
}
