import ChainTrace
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON

/// What one line of a compact (version 2, 3 or 4) segment holds.
enum CompactLogLine {
    case trace(Trace)
    /// A names record: the names were added to the segment.
    case names
}

/// Reads the lines of one compact segment (``CompactTraceLogFormat``): the names written so far and the previous
/// trace's id and start time, which the next trace is relative to.
///
/// Two ways in, as for version 1: ``decodeFast(_:keepsPayload:names:)`` straight from a line's bytes, answering
/// `nil` for anything it does not fully understand, and ``decode(_:document:file:line:keepsPayload:)`` from the
/// parsed line, which accepts exactly the same lines and names the element at fault in its errors. The segment
/// changes only when a line is accepted.
struct CompactSegment {
    /// Whether a trace's extras may hold `parents`: from version 3 on.
    private let readsParents: Bool
    /// Whether a trace's extras may hold `traceparent`: from version 4 on.
    private let readsTraceParent: Bool
    private(set) var names: [String] = []
    /// The names written so far, to refuse one written twice: a writer writes each name once per segment, so a
    /// repeat means lines that do not belong together — typically a segment appended without its header line,
    /// whose name numbers would otherwise silently mean other names.
    private var written: Set<String> = []
    private var previousID: UInt64 = 0
    private var previousStart: Int64 = 0
    /// The names traces of each chain share: the handlers (and registries) met in that chain's traces so far, as
    /// a recorded chain's traces share its handler names. Not the whole segment's list, whose chain names and
    /// kinds would read as handlers to an analysis that maps a trace's names.
    private var chains: [Int64: ChainNameList] = [:]

    /// A segment of a log whose header says `version` (one of ``CompactTraceLogFormat/versions``).
    init(version: Int) {
        readsParents = version >= 3
        readsTraceParent = version >= 4
    }

    /// The extras members this segment's version has, as an error lists them.
    private var extrasMembers: String {
        readsTraceParent
            ? "error, id, parents, payload, reasons, registries or traceparent"
            : readsParents
                ? "error, id, parents, payload, reasons or registries" : "error, id, payload, reasons or registries"
    }

    // MARK: Fast path

    /// Decodes a trace line (an array) from its bytes; `nil` for any other line or anything unexpected.
    mutating func decodeFast(_ bytes: UnsafeBufferPointer<UInt8>, keepsPayload: Bool, names table: NameTable) -> Trace?
    {
        var cursor = JSONByteCursor(bytes: bytes, names: table)
        var numbers = Numbers()
        var hops: [CompactHop] = []
        var extras = CompactExtras()
        var element = 0
        let names = self.names
        let complete = cursor.elements { cursor in
            defer { element += 1 }
            switch element {
            case 0..<8:
                guard let number = cursor.integer() else { return false }
                numbers.set(element, to: number)
                return true
            case 8:
                return Self.fastHops(&cursor, names: names, into: &hops)
            case 9:
                return CompactExtras.read(
                    &cursor,
                    keepsPayload: keepsPayload,
                    readsParents: readsParents,
                    readsTraceParent: readsTraceParent,
                    into: &extras
                )
            default:
                return false
            }
        }
        guard complete, element >= 9, cursor.isAtEnd() else { return nil }
        return try? makeTrace(numbers: numbers, hops: hops, extras: extras).get()
    }

    private static func fastHops(_ cursor: inout JSONByteCursor, names: [String], into hops: inout [CompactHop]) -> Bool
    {
        var group: (Int64, Int64, Int64) = (0, 0, 0)
        var member = 0
        var offset: Int64 = 0
        let complete = cursor.elements { cursor in
            guard let number = cursor.integer() else { return false }
            switch member {
            case 0: group.0 = number
            case 1: group.1 = number
            case 2: group.2 = number
            default:
                guard
                    let hop = Self.hop(
                        code: group.0,
                        selfTime: group.1,
                        gap: group.2,
                        nested: number,
                        offset: &offset,
                        names: names
                    )
                else { return false }
                hops.append(hop)
            }
            member = (member + 1) & 3
            return true
        }
        return complete && member == 0
    }

    // MARK: General path

    /// Decodes any line of a compact segment from its parsed value; errors name the element at fault (its column
    /// when `document` is given, else column 1 of `line`).
    mutating func decode(
        _ value: JSONValue,
        document: JSONDocument?,
        file: String,
        line: Int,
        keepsPayload: Bool
    ) throws(FormatError) -> CompactLogLine {
        func fail(_ path: String, _ expected: String, found: String) -> FormatError {
            let (line, column) = document?.position(of: path) ?? (line, 1)
            return FormatError(file: file, line: line, column: column, expected: expected, found: found)
        }
        func fail(_ path: String, _ expected: String, _ found: JSONValue?) -> FormatError {
            fail(path, expected, found: found?.summary ?? "nothing")
        }
        switch value {
        case .object(let members):
            if members.count == 1, let list = members["names"] {
                guard case .array(let elements) = list else {
                    throw fail("names", "names to be an array of strings", list)
                }
                var added: [String] = []
                // The line's own names apart from those written before, so that a segment's set is not copied for
                // every names line (a line a name: a copy of every name before it) and is left as it was when the
                // line is refused.
                var addedHere: Set<String> = []
                for (index, element) in elements.enumerated() {
                    guard case .string(let name) = element else {
                        throw fail("names[\(index)]", "names[\(index)] to be a string", element)
                    }
                    guard !written.contains(name), addedHere.insert(name).inserted else {
                        throw fail(
                            "names[\(index)]",
                            "a name not yet written in this segment (each is written once; were logs joined without the header line that starts each one?)",
                            element
                        )
                    }
                    added.append(name)
                }
                names += added
                written.formUnion(added)
                return .names
            }
            throw fail("", "a trace (an array) or a record ({\"names\":[…]} or {\"dropped\":N})", value)
        case .array(let elements):
            guard elements.count == 9 || elements.count == 10 else {
                throw fail(
                    "",
                    "a trace of 9 elements (10 with extras), as Docs/TraceLogFormat.md lists",
                    .string("\(elements.count) elements")
                )
            }
            var numbers = Numbers()
            let labels = [
                "id difference", "start time difference", "durationNs", "chain", "chainVersion", "kind", "entry",
                "outcome",
            ]
            for index in 0..<8 {
                guard case .integer(let number) = elements[index] else {
                    throw fail("[\(index)]", "element \(index) (\(labels[index])) to be an integer", elements[index])
                }
                numbers.set(index, to: number)
            }
            guard case .array(let hopNumbers) = elements[8] else {
                throw fail("[8]", "element 8 (hops) to be an array", elements[8])
            }
            guard hopNumbers.count % 4 == 0 else {
                throw fail("[8]", "element 8 (hops) to hold 4 integers a hop", .string("\(hopNumbers.count) integers"))
            }
            var hops: [CompactHop] = []
            var offset: Int64 = 0
            for start in stride(from: 0, to: hopNumbers.count, by: 4) {
                var group: [Int64] = []
                for index in start..<start + 4 {
                    guard case .integer(let number) = hopNumbers[index] else {
                        throw fail("[8][\(index)]", "element 8 (hops) to hold integers", hopNumbers[index])
                    }
                    group.append(number)
                }
                guard
                    let hop = Self.hop(
                        code: group[0],
                        selfTime: group[1],
                        gap: group[2],
                        nested: group[3],
                        offset: &offset,
                        names: names
                    )
                else {
                    throw fail(
                        "[8][\(start)]",
                        Self.hopExpectation(group, names: names.count, offset: offset),
                        .string("[\(group.map(String.init).joined(separator: ","))]")
                    )
                }
                hops.append(hop)
            }
            var extras = CompactExtras()
            if elements.count == 10 {
                guard case .object(let members) = elements[9] else {
                    throw fail("[9]", "element 9 (extras) to be an object", elements[9])
                }
                // In key order: the first error named is the same on every read.
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    switch (key, member) {
                    case ("error", .string(let text)): extras.error = text
                    case ("id", .string(let text)): extras.id = text
                    case ("id", .null): break
                    case ("payload", _): if keepsPayload { extras.payload = member }
                    case ("reasons", .array(let pairs)):
                        for (index, pair) in pairs.enumerated() {
                            guard case .array(let parts) = pair, parts.count == 2,
                                case .integer(let position) = parts[0], position >= 0,
                                case .string(let text) = parts[1]
                            else { throw fail("[9].reasons[\(index)]", "a reason as [hop index, string]", pair) }
                            extras.reasons.append((position, text))
                        }
                    case ("registries", .array(let pairs)):
                        for (index, pair) in pairs.enumerated() {
                            guard case .array(let parts) = pair, parts.count == 2,
                                case .integer(let position) = parts[0], position >= 0,
                                case .integer(let name) = parts[1], name >= 0
                            else {
                                throw fail("[9].registries[\(index)]", "a registry as [hop index, name index]", pair)
                            }
                            extras.registries.append((position, name))
                        }
                    case ("parents", .array(let distances)) where readsParents:
                        var parents: [Int64] = []
                        for (index, distance) in distances.enumerated() {
                            guard case .integer(let number) = distance, number >= 0 else {
                                let expected = "a hop's distance back to its parent, an integer ≥ 0"
                                throw fail("[9].parents[\(index)]", expected, distance)
                            }
                            parents.append(number)
                        }
                        extras.parents = parents
                    case ("parents", _) where !readsParents:
                        throw fail(
                            "[9].parents",
                            "extras with \(extrasMembers): hop parents are version 3's, and this segment's header says version 2",
                            found: "the member \"parents\""
                        )
                    case ("traceparent", .string(let text)) where readsTraceParent:
                        guard let parent = TraceParent(header: text) else {
                            let expected = "a W3C traceparent, 00-<32 hex digits>-<16 hex digits>-<flags>"
                            throw fail("[9].traceparent", expected, member)
                        }
                        extras.traceParent = parent
                    case ("traceparent", _) where !readsTraceParent:
                        throw fail(
                            "[9].traceparent",
                            "extras with \(extrasMembers): a trace's parent span is version 4's, and this segment's header says an earlier version",
                            found: "the member \"traceparent\""
                        )
                    case ("error", _), ("id", _), ("reasons", _), ("registries", _), ("parents", _), ("traceparent", _):
                        let type =
                            key == "id"
                            ? "a string or null" : key == "error" || key == "traceparent" ? "a string" : "an array"
                        throw fail("[9].\(key)", "the extras member \"\(key)\" to be \(type)", member)
                    default:
                        throw fail("[9].\(key)", "extras with \(extrasMembers)", found: "the member \"\(key)\"")
                    }
                }
            }
            switch makeTrace(numbers: numbers, hops: hops, extras: extras) {
            case .success(let trace): return .trace(trace)
            case .failure(let problem): throw fail(problem.path, problem.expected, problem.found)
            }
        default:
            throw fail("", "a trace (an array) or a record ({\"names\":[…]} or {\"dropped\":N})", value)
        }
    }

    private static func hopExpectation(_ group: [Int64], names: Int, offset: Int64) -> String {
        if group[0] < 0 || group[0] / 4 >= Int64(names) {
            return
                "a hop's first number to be handler × 4 + decision, with the handler one of the \(names) names written"
        }
        if group[1] < 0 { return "a hop's self time (second number) to be ≥ 0" }
        return
            "a hop's start offset (the previous one plus the third number) and inclusive time (self plus the fourth) to be ≥ 0 and fit in 64 bits"
    }

    // MARK: Shared

    /// A trace line's first eight elements, by their place in the line.
    private struct Numbers {
        var idDifference: Int64 = 0, startDifference: Int64 = 0, duration: Int64 = 0, chain: Int64 = 0
        var chainVersion: Int64 = 0, kind: Int64 = 0, entry: Int64 = 0, outcome: Int64 = 0

        mutating func set(_ element: Int, to number: Int64) {
            switch element {
            case 0: idDifference = number
            case 1: startDifference = number
            case 2: duration = number
            case 3: chain = number
            case 4: chainVersion = number
            case 5: kind = number
            case 6: entry = number
            default: outcome = number
            }
        }
    }

    private struct Problem: Error {
        let path: String
        let expected: String
        let found: JSONValue?
    }

    /// One hop from its four numbers; `nil` when they do not make one. `offset` is the previous hop's start.
    private static func hop(
        code: Int64,
        selfTime: Int64,
        gap: Int64,
        nested: Int64,
        offset: inout Int64,
        names: [String]
    ) -> CompactHop? {
        guard code >= 0, code / 4 < Int64(names.count), selfTime >= 0 else { return nil }
        let (start, startOverflow) = offset.addingReportingOverflow(gap)
        let (inclusive, inclusiveOverflow) = selfTime.addingReportingOverflow(nested)
        guard !startOverflow, !inclusiveOverflow, start >= 0, inclusive >= 0 else { return nil }
        offset = start
        return CompactHop(
            handler: Int(code / 4),
            registry: -1,
            decision: CompactTraceLogFormat.decisions[Int(code % 4)],
            parent: -1,
            selfNanoseconds: UInt64(selfTime),
            inclusiveNanoseconds: UInt64(inclusive),
            startNanoseconds: UInt64(start)
        )
    }

    /// The trace the numbers, hops and extras describe, checked against the segment; the segment moves on only
    /// when it is one.
    private mutating func makeTrace(
        numbers: Numbers,
        hops: [CompactHop],
        extras: CompactExtras
    ) -> Result<Trace, Problem> {
        let (idDifference, startDifference, duration, chain, chainVersion, kind, entry, outcomeCode) = (
            numbers.idDifference, numbers.startDifference, numbers.duration, numbers.chain, numbers.chainVersion,
            numbers.kind,
            numbers.entry, numbers.outcome
        )
        func name(_ index: Int64, _ path: String, _ label: String) -> Result<String, Problem> {
            guard index >= 0, index < Int64(names.count) else {
                return .failure(
                    Problem(
                        path: path,
                        expected:
                            "\(label) to be one of the \(names.count) names written so far (0…\(names.count - 1))",
                        found: .integer(index)
                    )
                )
            }
            return .success(names[Int(index)])
        }
        guard duration >= 0 else {
            return .failure(Problem(path: "[2]", expected: "durationNs to be ≥ 0", found: .integer(duration)))
        }
        guard chainVersion >= 0, let version = Int(exactly: chainVersion) else {
            return .failure(Problem(path: "[4]", expected: "chainVersion to be ≥ 0", found: .integer(chainVersion)))
        }
        let chainName: String
        let kindName: String
        switch (name(chain, "[3]", "chain"), name(kind, "[5]", "kind"), name(entry, "[6]", "entry")) {
        case (.success(let a), .success(let b), .success): (chainName, kindName) = (a, b)
        case (.failure(let problem), _, _), (_, .failure(let problem), _), (_, _, .failure(let problem)):
            return .failure(problem)
        }
        let outcome: Outcome
        if outcomeCode == -1 {
            outcome = .fellOffTheEnd
        } else {
            guard outcomeCode >= 0 else {
                return .failure(
                    Problem(
                        path: "[7]",
                        expected: "outcome to be -1 or a handler × 2 (+1 if failed)",
                        found: .integer(outcomeCode)
                    )
                )
            }
            switch name(outcomeCode / 2, "[7]", "outcome's handler") {
            case .failure(let problem): return .failure(problem)
            case .success(let handler):
                if outcomeCode % 2 == 0 {
                    outcome = .accepted(by: handler)
                } else {
                    guard let error = extras.error else {
                        return .failure(
                            Problem(
                                path: "[7]",
                                expected: "a failed outcome's error in the extras (element 9)",
                                found: nil
                            )
                        )
                    }
                    outcome = .failed(at: handler, error: error)
                }
            }
        }
        if extras.error != nil, outcomeCode == -1 || outcomeCode % 2 == 0 {
            return .failure(
                Problem(
                    path: "[9].error",
                    expected: "an error only with a failed outcome",
                    found: extras.error.map { .string($0) }
                )
            )
        }
        var hops = hops
        var reasons: [(Int, String)] = []
        for (position, reason) in extras.reasons {
            guard position < Int64(hops.count) else {
                return .failure(
                    Problem(
                        path: "[9].reasons",
                        expected: "reasons of hops 0…\(hops.count - 1)",
                        found: .integer(position)
                    )
                )
            }
            reasons.append((Int(position), reason))
        }
        for (position, registry) in extras.registries {
            guard position < Int64(hops.count) else {
                return .failure(
                    Problem(
                        path: "[9].registries",
                        expected: "registries of hops 0…\(hops.count - 1)",
                        found: .integer(position)
                    )
                )
            }
            if case .failure(let problem) = name(registry, "[9].registries", "a registry") { return .failure(problem) }
            hops[Int(position)].registry = Int(registry)
        }
        if let parents = extras.parents {
            guard parents.count == hops.count else {
                return .failure(
                    Problem(
                        path: "[9].parents",
                        expected: "one distance a hop (\(hops.count))",
                        found: .string("\(parents.count) distances")
                    )
                )
            }
            for (position, distance) in parents.enumerated() {
                guard distance <= Int64(position) else {
                    return .failure(
                        Problem(
                            path: "[9].parents[\(position)]",
                            expected: "a distance back to an earlier hop, 0…\(position)",
                            found: .integer(distance)
                        )
                    )
                }
                hops[position].parent = distance == 0 ? -1 : position - Int(distance)
            }
        }
        let id = previousID &+ UInt64(bitPattern: idDifference)
        let start = previousStart &+ startDifference
        previousID = id
        previousStart = start
        // The hops' names as indexes into the chain's own list — taken out of `chains` while names are added, so
        // that its arrays are not shared and grow in place (a copy a name was a copy of every name before it).
        var chainNames = chains.removeValue(forKey: chain) ?? ChainNameList(chain: chainName)
        // A full shared list lacking one of the trace's names: the trace's names in a list of their own.
        let sharesList =
            chainNames.holds(Int(entry))
            && hops.allSatisfy { chainNames.holds($0.handler) && ($0.registry < 0 || chainNames.holds($0.registry)) }
        if !sharesList {
            chains[chain] = chainNames
            chainNames = ChainNameList(chain: chainName, ofOneTrace: true)
        }
        let localEntry = chainNames.index(of: Int(entry), in: self.names)
        for index in hops.indices {
            hops[index].handler = chainNames.index(of: hops[index].handler, in: self.names)
            if hops[index].registry >= 0 {
                hops[index].registry = chainNames.index(of: hops[index].registry, in: self.names)
            }
        }
        let shared = chainNames.current()
        if sharesList { chains[chain] = chainNames }
        return .success(
            Trace(
                id: id,
                commandKind: kindName,
                commandID: extras.id,
                payload: extras.payload,
                names: shared,
                entry: localEntry,
                chainVersion: version,
                startTime: start,
                hops: hops,
                reasons: reasons,
                outcome: outcome,
                duration: UInt64(duration),
                traceParent: extras.traceParent
            )
        )
    }
}
