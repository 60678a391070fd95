import ChainTrace
import ChainTraceFastPath
import ChainTraceJSON

/// The fast path of ``TraceLogReader``: decodes one trace line straight from its bytes to a ``Trace``, with no
/// JSON tree in between, its names found by their bytes in the reader's ``TraceLineNames``.
///
/// It accepts only what it fully understands — valid JSON of the documented shape — and answers `nil` for anything
/// else (a float where an integer belongs, a missing field, bad syntax, more distinct names than it keeps). The
/// reader then decodes the line the general way, which either accepts it or throws the precise error, so the two
/// paths accept exactly the same lines, build the same traces and report the same errors.
enum TraceLineDecoder {
    /// Decodes `bytes` (one line, without its newline); `keepsPayload: false` skips the payload unread.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>,
        keepsPayload: Bool,
        names: NameTable,
        lists: TraceLineNames
    ) -> Trace? {
        var cursor = JSONByteCursor(bytes: bytes, names: names)
        guard let trace = cursor.trace(keepsPayload: keepsPayload, lists: lists), cursor.isAtEnd() else { return nil }
        return trace
    }
}

/// A hop as read from a line: its names as the reader's name numbers.
struct NumberedHop {
    var handler: Int
    var registry: Int
    var decision: Decision
    /// The position of the hop it ran inside, or -1.
    var parent: Int
    var reason: String?
    var start: UInt64
    var inclusive: UInt64
    var selfTime: UInt64
}

extension JSONByteCursor {
    /// A name, as the number `lists` gives it: found by its bytes in the line, or — with escapes or non-ASCII
    /// text — by the bytes of the string they decode to; `nil` for anything the general parser rejects.
    mutating func nameNumber(in lists: TraceLineNames) -> Int? {
        let start = index
        if let raw = rawString() { return names.withObject { lists.number(of: raw.bytes, table: $0) } }
        index = start
        guard var text = string() else { return nil }
        return text.withUTF8 { bytes in names.withObject { lists.number(of: bytes, table: $0) } }
    }

    mutating func trace(keepsPayload: Bool, lists: TraceLineNames) -> Trace? {
        var id: Int64?
        var chain: String?
        var chainVersion: Int64?
        var entry: Int?
        var start: Int64?
        var duration: Int64?
        var kind: String?
        var commandID: String?
        var payload: JSONValue?
        var hops: [NumberedHop]?
        var outcome: Outcome?
        var traceParent: TraceParent?
        let complete = members { decoder, key in
            switch key {
            case "id": id = decoder.integer()
            case "chain": chain = decoder.name()
            case "chainVersion": chainVersion = decoder.integer(atLeast: 0)
            case "entry":
                entry = decoder.nameNumber(in: lists)
                return entry != nil
            case "startTimeNs": start = decoder.integer()
            case "durationNs": duration = decoder.integer(atLeast: 0)
            case "command":
                (kind, commandID, payload) = (nil, nil, nil)
                return decoder.members { decoder, key in
                    switch key {
                    case "kind":
                        kind = decoder.name()
                        return kind != nil
                    case "id":
                        if decoder.null() {
                            commandID = nil
                            return true
                        }
                        commandID = decoder.string()
                        return commandID != nil
                    case "payload":
                        if keepsPayload {
                            payload = decoder.value()
                            return payload != nil
                        }
                        return decoder.skipValue()
                    default: return decoder.skipValue()
                    }
                }
            case "hops":
                hops = decoder.numberedHops(in: lists)
                return hops != nil
            case "outcome":
                outcome = decoder.outcome()
                return outcome != nil
            case "traceparent":
                if decoder.null() {
                    traceParent = nil
                    return true
                }
                traceParent = decoder.string().flatMap(TraceParent.init(header:))
                return traceParent != nil
            default: return decoder.skipValue()
            }
            return true
        }
        guard complete, let id, let chain, let chainVersion, let entry, let start, let duration, let kind, let hops,
            let outcome, let chainVersionInt = Int(exactly: chainVersion),
            // Checked before the names join the chain's list: a line refused must leave no name there.
            isAtEnd()
        else { return nil }
        // The names as this chain's list has them: its traces share it. A trace's new names join the list in the
        // order the public initialiser lists a trace's names — the entry, then each hop's handler and registry —
        // so that an analysis meets them in the same order either way.
        let list = lists.list(ofChain: chain)
        let entryIndex = lists.index(of: entry, inList: list)
        var compact: [CompactHop] = []
        compact.reserveCapacity(hops.count)
        var reasons: [(Int, String)] = []
        for (position, hop) in hops.enumerated() {
            compact.append(
                CompactHop(
                    handler: lists.index(of: hop.handler, inList: list),
                    registry: hop.registry >= 0 ? lists.index(of: hop.registry, inList: list) : -1,
                    decision: hop.decision,
                    parent: hop.parent,
                    selfNanoseconds: hop.selfTime,
                    inclusiveNanoseconds: hop.inclusive,
                    startNanoseconds: hop.start
                )
            )
            if let reason = hop.reason { reasons.append((position, reason)) }
        }
        return Trace(
            id: UInt64(bitPattern: id),
            commandKind: kind,
            commandID: commandID,
            payload: payload,
            names: lists.current(list),
            entry: entryIndex,
            chainVersion: chainVersionInt,
            startTime: start,
            hops: compact,
            reasons: reasons,
            outcome: outcome,
            duration: UInt64(duration),
            traceParent: traceParent
        )
    }

    mutating func numberedHops(in lists: TraceLineNames) -> [NumberedHop]? {
        var hops: [NumberedHop] = []
        let complete = elements { decoder in
            var handler: Int?
            var position: Int64?
            var decision: Decision?
            var reason: String?
            var registry = -1
            var parent: Int64 = -1
            var start: Int64?
            var inclusive: Int64?
            var selfTime: Int64?
            let complete = decoder.members { decoder, key in
                switch key {
                case "handler":
                    handler = decoder.nameNumber(in: lists)
                    return handler != nil
                case "position": position = decoder.integer()
                case "decision":
                    decision = decoder.decision()
                    return decision != nil
                case "reason":
                    if decoder.null() {
                        reason = nil
                        return true
                    }
                    reason = decoder.string()
                    return reason != nil
                case "registry":
                    if decoder.null() {
                        registry = -1
                        return true
                    }
                    guard let number = decoder.nameNumber(in: lists) else { return false }
                    registry = number
                case "parent":
                    if decoder.null() {
                        parent = -1
                        return true
                    }
                    guard let number = decoder.integer(atLeast: 0) else { return false }
                    parent = number
                case "startOffsetNs": start = decoder.integer(atLeast: 0)
                case "inclusiveNs": inclusive = decoder.integer(atLeast: 0)
                case "selfNs": selfTime = decoder.integer(atLeast: 0)
                default: return decoder.skipValue()
                }
                return true
            }
            // A parent is an earlier hop; the general path reports any other.
            guard complete, let handler, position == Int64(hops.count), let decision, let start, let inclusive,
                let selfTime, parent < Int64(hops.count)
            else { return false }
            hops.append(
                NumberedHop(
                    handler: handler,
                    registry: registry,
                    decision: decision,
                    parent: Int(parent),
                    reason: reason,
                    start: UInt64(start),
                    inclusive: UInt64(inclusive),
                    selfTime: UInt64(selfTime)
                )
            )
            return true
        }
        return complete ? hops : nil
    }

    mutating func outcome() -> Outcome? {
        var kind: String?
        var handler: String?
        var error: String?
        let complete = members { decoder, key in
            switch key {
            case "kind":
                kind = decoder.name()
                return kind != nil
            case "handler":
                handler = decoder.name()
                return handler != nil
            case "error":
                error = decoder.string()
                return error != nil
            default: return decoder.skipValue()
            }
        }
        guard complete else { return nil }
        switch kind {
        case "accepted"?: return handler.map { .accepted(by: $0) }
        case "fellOffTheEnd"?: return .fellOffTheEnd
        case "failed"?:
            guard let handler, let error else { return nil }
            return .failed(at: handler, error: error)
        default: return nil
        }
    }

    /// A decision, matched on its bytes.
    mutating func decision() -> Decision? {
        guard let raw = rawString() else { return nil }
        switch raw {
        case "accepted": return .accepted
        case "passed": return .passed
        case "continued": return .continued
        case "failed": return .failed
        default: return nil
        }
    }
}
