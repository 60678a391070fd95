public import ChainTrace
import ChainTraceFastPath
import ChainTraceJSON

/// The ChainTrace trace log, version 4 (version 2 with hop parents, and the request span a trace ran under): the compact form ``TraceLogSink`` writes by
/// default. Still JSON Lines — `jq`, DuckDB and Spark read it — but a 10-hop trace takes about 200 bytes instead
/// of about 1 KB: names are written once per file and referred to by number, ids and start times are differences
/// from the previous trace, and what is usually absent (a command id, reasons, registries, hop parents, a payload)
/// is left out.
///
/// ```text
/// {"format":"chaintrace-trace-log","version":4}
/// {"names":["coins","Coin","Penny","Nickel","Dime"]}
/// [1,1763800000000000000,812,0,0,1,2,8,[8,330,0,482,13,482,330,0]]
/// ```
///
/// `Docs/TraceLogFormat.md` documents every element. ``TraceLogReader`` reads every version.
public enum CompactTraceLogFormat {
    /// The version number in the header: 4, which is version 3 with the extras member `traceparent`, as version 3
    /// is version 2 with `parents` (a reader refuses an extras member it does not know, so each new member needed a
    /// new version).
    public static let version = 4

    /// The compact versions a reader reads: version 3's lines are version 4's without `traceparent`, version 2's
    /// without `parents` too.
    public static let versions = 2...4

    /// The header line, without its newline. A header later in a file starts a new segment: names and
    /// differences start again, so logs can be appended to and concatenated.
    public static var header: [UInt8] {
        Array(#"{"format":"\#(TraceLogFormat.formatName)","version":\#(version)}"#.utf8)
    }

    /// The code of each decision in a hop's first number (`handler × 4 + code`).
    static func code(of decision: Decision) -> Int64 {
        switch decision {
        case .accepted: 0
        case .passed: 1
        case .continued: 2
        case .failed: 3
        }
    }

    static let decisions: [Decision] = [.accepted, .passed, .continued, .failed]
}

/// Writes traces in the compact trace log format (``CompactTraceLogFormat``), remembering the names and the
/// previous trace it wrote in one segment.
///
/// ```swift
/// var encoder = CompactTraceLogEncoder()
/// var bytes = CompactTraceLogFormat.header + [0x0A]
/// for trace in traces { encoder.encode(trace, into: &bytes) }
/// ```
public struct CompactTraceLogEncoder: Sendable {
    private var names: [String: Int64] = [:]
    /// `names`' numbers of the names met last, by the strings' identities: found without hashing a name again.
    private var recentNames = StringIndexCache()
    private var newNames: [String] = []
    private var previousID: UInt64 = 0
    private var previousStart: Int64 = 0
    private var writer = JSONWriter()
    /// Where the trace line is written: the caller's bytes, swapped in for the call (so that `put` and the rest
    /// append to them without taking them as an argument), and empty between calls.
    ///
    /// What it buys: the line was written into an array of its own and then appended to the caller's, a second
    /// copy of every byte (of a replayed command's payload too). The benchmark's "block when behind" row, whose
    /// caller waits for the writer: 42.5–44.5 → 38.3–41.9 ns a hop with this and ``ByteChunk``'s digit pairs (10
    /// interleaved rounds), 43.0–47.9 → 40.0–46.8 with this alone (the fastest seven of 10 other rounds).
    private var line: [UInt8] = []
    /// The log's numbers for the names of the last trace's name list (shared by every trace of one chain version),
    /// filled as they are met: a hop's handler costs an array read, not a string lookup.
    private var mappedOwner: (any AnyObject & Sendable)?
    private var mappedNames: [String] = []
    private var mapped: [Int64] = []
    /// The lineage of the names mapped (``NameLineage``): a longer list of it keeps the numbers met so far.
    private var mappedLineage: NameLineage?
    private var mappedChain: Int64 = 0
    private var lastKind = ""
    private var lastKindNumber: Int64 = -1
    private var reasons: [(Int, String)] = []
    private var registries: [(Int, Int64)] = []
    /// Each hop's distance back to its parent (0 at the top), written when some hop has one.
    private var parents: [Int64] = []

    /// An encoder at the start of a segment (right after a header).
    public init() {}

    /// Starts a new segment, as after a header: names and differences start again.
    public mutating func reset() {
        self = CompactTraceLogEncoder()
    }

    /// Appends `trace`'s line, preceded by a names line when it uses names not written before, each ended by a
    /// newline.
    public mutating func encode(_ trace: Trace, into bytes: inout [UInt8]) {
        swap(&line, &bytes)
        defer { swap(&line, &bytes) }
        let lineStart = line.count
        if mappedOwner.map({ ObjectIdentifier($0) }) != trace.compactNamesIdentity {
            let (names, owner) = trace.compactNames
            let lineage = trace.compactNameLineage
            if let lineage, lineage === mappedLineage, names.count >= mapped.count {
                // A longer list of the same lineage (a log reader's, grown): the numbers of the names so far stand.
                mapped.append(contentsOf: repeatElement(-1, count: names.count - mapped.count))
            } else {
                mapped = [Int64](repeating: -1, count: names.count)
            }
            mappedOwner = owner
            mappedNames = names
            mappedLineage = lineage
            mappedChain = index(of: trace.chain)
        }
        let kind = trace.commandKind
        if lastKindNumber < 0 || kind != lastKind {
            lastKind = kind
            lastKindNumber = index(of: kind)
        }
        let entry = number(ofName: trace.compactEntry)
        let startTime = trace.startTime
        var head = ByteChunk()
        head.append(UInt8(ascii: "["))
        head.append(decimal: Int64(bitPattern: trace.id &- previousID))
        head.append(UInt8(ascii: ","))
        head.append(decimal: startTime &- previousStart)
        head.append(UInt8(ascii: ","))
        head.append(decimal: Int64(clamping: trace.duration))
        head.append(UInt8(ascii: ","))
        head.append(decimal: mappedChain)
        head.append(UInt8(ascii: ","))
        head.append(decimal: Int64(trace.chainVersion))
        head.append(UInt8(ascii: ","))
        head.append(decimal: lastKindNumber)
        head.append(UInt8(ascii: ","))
        head.append(decimal: entry)
        head.append(UInt8(ascii: ","))
        head.move(to: &line)
        var error: String?
        switch trace.compactOutcomeRecord {
        case .fellOffTheEnd?: put("-1")
        case .decided(let handler, let failed)?:
            put(number(ofName: handler) * 2 + (failed ? 1 : 0))
            if failed, case .failed(_, let message) = trace.outcome { error = message }
        case nil:
            switch trace.outcome {
            case .fellOffTheEnd: put("-1")
            case .accepted(let handler): put(index(of: handler) * 2)
            case .failed(let handler, let message):
                put(index(of: handler) * 2 + 1)
                error = message
            }
        }
        put(",[")
        var previousOffset: Int64 = 0
        var position = 0
        registries.removeAll(keepingCapacity: true)
        parents.removeAll(keepingCapacity: true)
        var hasParents = false
        var chunk = ByteChunk()
        trace.forEachCompactHop { hop in
            if !chunk.hasRoom(for: 4 * (ByteChunk.decimalWidth + 1)) { chunk.move(to: &line) }
            if position > 0 { chunk.append(UInt8(ascii: ",")) }
            chunk.append(decimal: number(ofName: hop.handler) * 4 + CompactTraceLogFormat.code(of: hop.decision))
            chunk.append(UInt8(ascii: ","))
            let selfTime = Int64(clamping: hop.selfNanoseconds)
            chunk.append(decimal: selfTime)
            chunk.append(UInt8(ascii: ","))
            let offset = Int64(clamping: hop.startNanoseconds)
            chunk.append(decimal: offset - previousOffset)  // both in 0...Int64.max: cannot overflow
            previousOffset = offset
            chunk.append(UInt8(ascii: ","))
            chunk.append(decimal: Int64(clamping: hop.inclusiveNanoseconds) - selfTime)
            if hop.registry >= 0 { registries.append((position, number(ofName: hop.registry))) }
            // A recorded parent is an earlier hop. Noted from the first hop that has one (most traces of chains
            // on ChainTrace's own types have none), the hops before it at the top.
            let distance = hop.parent >= 0 && hop.parent < position ? Int64(position - hop.parent) : 0
            if distance > 0, !hasParents {
                hasParents = true
                parents.append(contentsOf: repeatElement(0, count: position))
            }
            if hasParents { parents.append(distance) }
            position += 1
        }
        chunk.move(to: &line)
        put("]")
        reasons.removeAll(keepingCapacity: true)
        trace.forEachReason { reasons.append(($0, $1)) }
        // Text a payload keeps is copied from where it is; any other is asked for once: a payload kept as its
        // command is encoded here, and may turn out to have no JSON at all.
        let encoded = trace.encodedPayload
        let keepsText = encoded?.withKeptText({ _ in true }) == true
        let payloadText = keepsText ? nil : encoded?.text
        let payloadValue = !keepsText && payloadText == nil ? trace.payload : nil
        // An id the trace holds, or one its payload keeps as text (copied from there, not made into a string).
        let storedID = trace.storedCommandID
        let keepsID = storedID == nil && encoded?.withKeptCommandID({ _ in true }) == true
        let traceParent = trace.traceParent
        if storedID != nil || keepsID || keepsText || payloadText != nil || payloadValue != nil || error != nil
            || !reasons.isEmpty
            || !registries.isEmpty || hasParents || traceParent != nil
        {
            // Keys in sorted order, as everywhere in ChainTrace's JSON.
            put(",{")
            var first = true
            func key(_ name: StaticString) {
                put(first ? "\"" : ",\"")
                put(name)
                put("\":")
                first = false
            }
            if let error {
                key("error")
                putString(error)
            }
            if let id = storedID {
                key("id")
                putString(id)
            } else if keepsID {
                key("id")
                _ = encoded?.withKeptCommandID { putPlainString($0) }
            }
            if hasParents {
                key("parents")
                put("[")
                var chunk = ByteChunk()
                for (index, distance) in parents.enumerated() {
                    if !chunk.hasRoom(for: ByteChunk.decimalWidth + 1) { chunk.move(to: &line) }
                    if index > 0 { chunk.append(UInt8(ascii: ",")) }
                    chunk.append(decimal: distance)
                }
                chunk.move(to: &line)
                put("]")
            }
            if keepsText {
                key("payload")
                _ = encoded?.withKeptText { line.append(contentsOf: $0) }
            } else if let text = payloadText {
                key("payload")
                line.append(contentsOf: text)
            } else if let payload = payloadValue {
                key("payload")
                putValue(payload)
            }
            /// `[[hop index, value], …]`.
            func pairs<Value>(_ name: StaticString, _ pairs: [(Int, Value)], _ write: (inout Self, Value) -> Void) {
                guard !pairs.isEmpty else { return }
                key(name)
                put("[")
                for (number, (position, value)) in pairs.enumerated() {
                    put(number == 0 ? "[" : ",[")
                    put(Int64(position))
                    put(",")
                    write(&self, value)
                    put("]")
                }
                put("]")
            }
            pairs("reasons", reasons) { $0.putString($1) }
            pairs("registries", registries) { $0.put($1) }
            if let traceParent {
                key("traceparent")
                putString(traceParent.header)
            }
            put("}")
        }
        put("]\n")
        if !newNames.isEmpty {
            // The names line goes before the trace's, which uses them: moved along to make room, as rarely as a
            // name is new.
            var names = JSONWriter()
            names.append(#"{"names":["#)
            for (number, name) in newNames.enumerated() {
                if number > 0 { names.append(",") }
                names.write(name)
            }
            names.append("]}\n")
            line.insert(contentsOf: names.bytes, at: lineStart)
            newNames.removeAll(keepingCapacity: true)
        }
        previousID = trace.id
        previousStart = startTime
    }

    /// Appends a record that `count` traces were dropped here (the writer fell behind and its policy is to drop).
    public mutating func encodeDropped(count: Int, into bytes: inout [UInt8]) {
        guard count > 0 else { return }
        bytes.append(contentsOf: Array(#"{"dropped":"#.utf8))
        writer.removeAll()
        writer.write(Int64(count))
        bytes.append(contentsOf: writer.bytes)
        bytes.append(contentsOf: Array("}\n".utf8))
    }

    // The line is written with these, in this module: the same calls to JSONWriter (another module, `package`
    // API, not inlined) cost the background writer a third of its time (measured with perf). The hops, most of
    // the line, are written a chunk at a time (ByteChunk).

    /// A decimal integer.
    private mutating func put(_ number: Int64) {
        var chunk = ByteChunk()
        chunk.append(decimal: number)
        chunk.move(to: &line)
    }

    /// Text that is already JSON in context.
    private mutating func put(_ text: StaticString) {
        text.withUTF8Buffer { line.append(contentsOf: $0) }
    }

    /// A JSON string.
    private mutating func putString(_ text: String) {
        JSONWriter.append(string: text, to: &line)
    }

    /// A JSON string of `bytes`, copied as they are when they are printable ASCII other than a quote or a
    /// backslash (as a payload's kept id usually is); written as ``putString(_:)`` writes it otherwise.
    private mutating func putPlainString(_ bytes: UnsafeBufferPointer<UInt8>) {
        let plain = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        guard plain else {
            putString(String(decoding: bytes, as: UTF8.self))
            return
        }
        line.append(UInt8(ascii: "\""))
        line.append(contentsOf: bytes)
        line.append(UInt8(ascii: "\""))
    }

    /// Any JSON value.
    private mutating func putValue(_ value: JSONValue) {
        writer.removeAll()
        writer.write(value)
        line.append(contentsOf: writer.bytes)
    }

    /// The log's number for the name at `index` of the current name list.
    private mutating func number(ofName index: Int) -> Int64 {
        if mapped[index] >= 0 { return mapped[index] }
        let number = self.index(of: mappedNames[index])
        mapped[index] = number
        return number
    }

    private mutating func index(of name: String) -> Int64 {
        if let index = recentNames.index(of: name) { return index }
        let index: Int64
        if let known = names[name] {
            index = known
        } else {
            index = Int64(names.count)
            names[name] = index
            newNames.append(name)
        }
        recentNames.remember(name, as: index)
        return index
    }
}
