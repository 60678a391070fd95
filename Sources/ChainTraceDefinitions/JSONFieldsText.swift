import ChainTrace
import ChainTraceFastPath
import ChainTraceJSON

/// A command line's fields kept as text: the line's members other than kind, id and entry, copied byte for byte
/// (values as written, in the line's order). What a replay hands the trace log as each command's payload, so a
/// line is not parsed into a tree a second time nor the tree written out again (measured: the two were half the
/// cost of `replay --trace-out` on a flat stream).
///
/// The text is kept in the object's own allocation (``InlineBytes``): the class has no stored property.
final class JSONFieldsText: EncodedPayload {
    // Read through `InlineBytes.parts(of:)`, which is not generic (see there why), in place: `self` lives through
    // each call.

    var text: [UInt8]? { Array(InlineBytes.parts(of: self).first) }

    var value: JSONValue? {
        let parsed: JSONValue? = try? JSONParser.parse(InlineBytes.parts(of: self).first)
        return parsed ?? [:]
    }

    func withKeptText<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned? {
        body(InlineBytes.parts(of: self).first)
    }

    /// The id, when one was kept: the bytes after the text (an id is kept only when it is not empty).
    func withKeptCommandID<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned? {
        let id = InlineBytes.parts(of: self).second
        guard !id.isEmpty else { return nil }
        return body(id)
    }

    /// The fields of `line` — a command line the stream reader's fast decoder accepted, whose kind, id and
    /// entry members lie at `outside` (empty ranges for those it lacks) — as text: the line between its braces
    /// with those members and the commas beside them cut out, each run of fields copied as it is. The line was
    /// walked once already, so it is not walked again (walking it a second time, skipping every value, was a
    /// quarter of `replay --trace-out`'s time on the benchmark's *varied* stream shape).
    ///
    /// `keepingID`, when given, is where the command's id lies in the line (inside its quotes: text that needs no
    /// escape, as the decoder found it), to keep after the text (``withKeptCommandID(_:)``); not empty.
    static func fields(
        ofLine line: UnsafeBufferPointer<UInt8>,
        outside: (Range<Int>, Range<Int>, Range<Int>),
        keepingID id: Range<Int>? = nil
    ) -> JSONFieldsText {
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
        let idRange = id.map { $0.clamped(to: 0..<line.count) } ?? 0..<0
        let room = line.count &+ 2 &+ idRange.count
        return InlineBytes.make(JSONFieldsText.self, capacity: room) { text -> (count: Int, split: Int) in
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
            let split = count
            if !idRange.isEmpty {
                precondition(idRange.count <= room &- count, "the fields' text and the id fit their room")
                (text + count).update(from: line.baseAddress! + idRange.lowerBound, count: idRange.count)
                count &+= idRange.count
            }
            return (count, split)
        }
    }

    /// White space or a comma: what may stand between a member and the next (a member itself never starts or
    /// ends with one).
    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}

extension JSONCommand {
    /// The fields as text, for a command read from a stream line (``fields`` otherwise); with `keepingID`, the
    /// command's id kept with them (``EncodedPayload/withKeptCommandID(_:)``) when the line holds it as plain text
    /// longer than a string holds without an allocation — then `keepsID`, and a trace given this payload needs no
    /// id of its own.
    ///
    /// What it buys: a replay that writes a log made a `String` of each command's id for its trace (an allocation
    /// for an id of 16 bytes and more), the log's writer read it on its own core, and the replaying thread freed it
    /// when the trace's storage came back (`chaintrace-cli-benchmarks`, "replay with trace log" column, *varied*
    /// shape, whose ids are such as `cmd-123456-654321`).
    package func fieldsText(keepingID: Bool = false) -> (payload: (any EncodedPayload)?, keepsID: Bool) {
        guard storage.fieldsInLine else { return (nil, false) }
        let outside = storage.membersOutsideFields
        // Ids a string holds inline (15 UTF-8 bytes) cost no allocation: made as they were.
        let id = keepingID && storage.id == nil ? storage.idInLine.flatMap { $0.count > 15 ? $0 : nil } : nil
        let payload = storage.withLine { JSONFieldsText.fields(ofLine: $0, outside: outside, keepingID: id) }
        return (payload, id != nil)
    }
}
