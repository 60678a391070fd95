import ChainTraceFastPath
import ChainTrace
import ChainTraceJSON

/// The fast path of ``TraceLogReader``: decodes one trace line straight from its bytes to a ``Trace``, with no
/// JSON tree in between.
///
/// It accepts only what it fully understands — valid JSON of the documented shape — and answers `nil` for
/// anything else (an escape in a name, a float where an integer belongs, a missing field, bad syntax). The
/// reader then decodes the line the general way, which either accepts it or throws the precise error, so the
/// two paths accept exactly the same lines and report the same errors.
enum TraceLineDecoder {
    /// Decodes `bytes` (one line, without its newline); `keepsPayload: false` skips the payload unread.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, keepsPayload: Bool, names: NameTable) -> Trace? {
        var cursor = JSONByteCursor(bytes: bytes, names: names)
        guard let trace = cursor.trace(keepsPayload: keepsPayload), cursor.isAtEnd() else { return nil }
        return trace
    }
}

extension JSONByteCursor {
    mutating func trace(keepsPayload: Bool) -> Trace? {
        var id: Int64?, chain: String?, chainVersion: Int64?, entry: String?, start: Int64?, duration: Int64?
        var kind: String?, commandID: String?, payload: JSONValue?
        var hops: [Hop]?
        var outcome: Outcome?
        let complete = members { decoder, key in
            switch key {
            case "id": id = decoder.integer()
            case "chain": chain = decoder.name()
            case "chainVersion": chainVersion = decoder.integer(atLeast: 0)
            case "entry": entry = decoder.name()
            case "startTimeNs": start = decoder.integer()
            case "durationNs": duration = decoder.integer(atLeast: 0)
            case "command":
                (kind, commandID, payload) = (nil, nil, nil)
                return decoder.members { decoder, key in
                    switch key {
                    case "kind": kind = decoder.name(); return kind != nil
                    case "id":
                        if decoder.null() { commandID = nil; return true }
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
            case "hops": hops = decoder.hops(); return hops != nil
            case "outcome": outcome = decoder.outcome(); return outcome != nil
            default: return decoder.skipValue()
            }
            return true
        }
        guard complete, let id, let chain, let chainVersion, let entry, let start, let duration, let kind, let hops,
            let outcome, let chainVersionInt = Int(exactly: chainVersion)
        else { return nil }
        return Trace(
            id: UInt64(bitPattern: id), commandKind: kind, commandID: commandID, payload: payload, entry: entry,
            chain: chain, chainVersion: chainVersionInt, startTime: start, hops: hops, outcome: outcome,
            duration: UInt64(duration))
    }

    mutating func hops() -> [Hop]? {
        var hops: [Hop] = []
        let complete = elements { decoder in
            var handler: String?, position: Int64?, decision: Decision?, reason: String?, registry: String?
            var start: Int64?, inclusive: Int64?, selfTime: Int64?
            let complete = decoder.members { decoder, key in
                switch key {
                case "handler": handler = decoder.name(); return handler != nil
                case "position": position = decoder.integer()
                case "decision": decision = decoder.decision(); return decision != nil
                case "reason":
                    if decoder.null() { reason = nil; return true }
                    reason = decoder.string()
                    return reason != nil
                case "registry":
                    if decoder.null() { registry = nil; return true }
                    registry = decoder.name()
                    return registry != nil
                case "startOffsetNs": start = decoder.integer(atLeast: 0)
                case "inclusiveNs": inclusive = decoder.integer(atLeast: 0)
                case "selfNs": selfTime = decoder.integer(atLeast: 0)
                default: return decoder.skipValue()
                }
                return true
            }
            guard complete, let handler, position == Int64(hops.count), let decision, let start, let inclusive,
                let selfTime
            else { return false }
            hops.append(
                Hop(
                    handler: handler, position: hops.count, decision: decision, reason: reason, registry: registry,
                    startOffset: UInt64(start), inclusiveDuration: UInt64(inclusive), selfDuration: UInt64(selfTime)))
            return true
        }
        return complete ? hops : nil
    }

    mutating func outcome() -> Outcome? {
        var kind: String?, handler: String?, error: String?
        let complete = members { decoder, key in
            switch key {
            case "kind": kind = decoder.name(); return kind != nil
            case "handler": handler = decoder.name(); return handler != nil
            case "error": error = decoder.string(); return error != nil
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
