import ChainTrace
import ChainTraceFastPath
import ChainTraceJSON

/// What a compact trace's extras object (element 9) holds, as either of `CompactSegment`'s decoders reads it.
struct CompactExtras {
    var error: String?
    var id: String?
    var payload: JSONValue?
    var reasons: [(Int64, String)] = []
    var registries: [(Int64, Int64)] = []
    /// For each hop, how many hops back its parent is (0 for none).
    var parents: [Int64]?
    var traceParent: TraceParent?
}

extension CompactExtras {
    /// Reads an extras object straight from its bytes (the fast path) into `extras`: `false` for anything it does
    /// not fully understand — a member the segment's version does not have (`readsParents`: version 3 on,
    /// `readsTraceParent`: version 4 on), a value of another shape — which the general decoder then refuses with
    /// the precise error.
    static func read(
        _ cursor: inout JSONByteCursor,
        keepsPayload: Bool,
        readsParents: Bool,
        readsTraceParent: Bool,
        into extras: inout CompactExtras
    ) -> Bool {
        cursor.members { cursor, key in
            switch key {
            case "error":
                extras.error = cursor.string()
                return extras.error != nil
            case "id":
                if cursor.null() { return true }
                extras.id = cursor.string()
                return extras.id != nil
            case "payload":
                guard keepsPayload else { return cursor.skipValue() }
                extras.payload = cursor.value()
                return extras.payload != nil
            case "reasons":
                return fastPairs(&cursor, value: { $0.string() }) { extras.reasons.append(($0, $1)) }
            case "registries":
                return fastPairs(&cursor, value: { $0.integer(atLeast: 0) }) { extras.registries.append(($0, $1)) }
            case "parents" where readsParents:
                var parents: [Int64] = []
                guard
                    cursor.elements({ cursor in
                        guard let distance = cursor.integer(atLeast: 0) else { return false }
                        parents.append(distance)
                        return true
                    })
                else { return false }
                extras.parents = parents
                return true
            case "traceparent" where readsTraceParent:
                extras.traceParent = cursor.string().flatMap(TraceParent.init(header:))
                return extras.traceParent != nil
            default: return false
            }
        }
    }

    /// `[[hop index, value], …]`, each pair handed to `add`.
    private static func fastPairs<Value>(
        _ cursor: inout JSONByteCursor,
        value read: (inout JSONByteCursor) -> Value?,
        add: (Int64, Value) -> Void
    ) -> Bool {
        cursor.elements { cursor in
            var position: Int64?
            var value: Value?
            var member = 0
            let pair = cursor.elements { cursor in
                defer { member += 1 }
                switch member {
                case 0:
                    position = cursor.integer(atLeast: 0)
                    return position != nil
                case 1:
                    value = read(&cursor)
                    return value != nil
                default: return false
                }
            }
            guard pair, let position, let value else { return false }
            add(position, value)
            return true
        }
    }
}
