import ChainTrace

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The fast path of ``TraceLogReader``: decodes one trace line straight from its bytes to a ``Trace``, with no
/// JSON tree in between.
///
/// It accepts only what it fully understands — valid JSON of the documented shape — and answers `nil` for
/// anything else (an escape in a name, a float where an integer belongs, a missing field, bad syntax). The
/// reader then decodes the line the general way, which either accepts it or throws the precise error, so the
/// two paths accept exactly the same lines and report the same errors.
struct TraceLineDecoder {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let keepsPayload: Bool
    private let names: NameTable

    /// Decodes `bytes` (one line, without its newline); `keepsPayload: false` skips the payload unread.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, keepsPayload: Bool, names: NameTable) -> Trace? {
        var decoder = TraceLineDecoder(bytes: bytes, keepsPayload: keepsPayload, names: names)
        guard let trace = decoder.trace() else { return nil }
        decoder.skipWhiteSpace()
        return decoder.index == bytes.count ? trace : nil
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, keepsPayload: Bool, names: NameTable) {
        self.bytes = bytes
        self.keepsPayload = keepsPayload
        self.names = names
    }

    // MARK: The trace's shape

    private mutating func trace() -> Trace? {
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
                        if decoder.keepsPayload {
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

    private mutating func hops() -> [Hop]? {
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

    private mutating func outcome() -> Outcome? {
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

    // MARK: JSON pieces

    /// Walks an object's members, calling `member` with each key (the value still to read); `false` on any
    /// problem. A key with an escape is a problem: the general path handles it.
    private mutating func members(_ member: (inout TraceLineDecoder, RawKey) -> Bool) -> Bool {
        skipWhiteSpace()
        guard take(UInt8(ascii: "{")) else { return false }
        skipWhiteSpace()
        if take(UInt8(ascii: "}")) { return true }
        while true {
            skipWhiteSpace()
            guard let key = rawString() else { return false }
            skipWhiteSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipWhiteSpace()
            guard member(&self, key) else { return false }
            skipWhiteSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}"))
        }
    }

    private mutating func elements(_ element: (inout TraceLineDecoder) -> Bool) -> Bool {
        skipWhiteSpace()
        guard take(UInt8(ascii: "[")) else { return false }
        skipWhiteSpace()
        if take(UInt8(ascii: "]")) { return true }
        while true {
            skipWhiteSpace()
            guard element(&self) else { return false }
            skipWhiteSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]"))
        }
    }

    /// A string without escapes, as its bytes, for keys compared without making a `String`.
    private mutating func rawString() -> RawKey? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return RawKey(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            index += 1
        }
        return nil
    }

    /// A string that is usually one of a few (handler names, kinds): the same `String` is handed out for the
    /// same bytes, so repeated names cost no allocation.
    private mutating func name() -> String? {
        let start = index
        guard let raw = rawString() else {
            index = start
            return string()
        }
        return names.string(for: raw.bytes)
    }

    /// A decision, matched on its bytes.
    private mutating func decision() -> Decision? {
        guard let raw = rawString() else { return nil }
        switch raw {
        case "accepted": return .accepted
        case "passed": return .passed
        case "continued": return .continued
        case "failed": return .failed
        default: return nil
        }
    }

    /// A string without escapes; `nil` for anything else.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return isASCII ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        return nil
    }

    /// An integer (no fraction or exponent) within Int64, at least `minimum`.
    private mutating func integer(atLeast minimum: Int64 = .min) -> Int64? {
        let negative = take(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else { return nil }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) { return nil }
        var value: Int64 = 0
        while index < bytes.count, isDigit(bytes[index]) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
            if overflow || overflow2 { return nil }
            value = sum
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
        let result = negative ? -value : value
        return result >= minimum ? result : nil
    }

    private mutating func null() -> Bool {
        guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// Any JSON value, parsed in full by the general parser (for payloads).
    private mutating func value() -> JSONValue? {
        let start = index
        guard skipValue() else { return nil }
        return try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    }

    /// Steps over any valid JSON value; `false` if it is not valid.
    private mutating func skipValue(depth: Int = 0) -> Bool {
        guard index < bytes.count, depth < 512 else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return members { decoder, _ in decoder.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            return elements { decoder in decoder.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "t"): return word("true")
        case UInt8(ascii: "f"): return word("false")
        case UInt8(ascii: "n"): return null()
        default: return skipNumber()
        }
    }

    private mutating func skipString() -> Bool {
        index += 1
        let start = index
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return isASCII || String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) != nil
            case UInt8(ascii: "\\"):
                // Escapes are rare in payloads: leave their exact rules to the general parser.
                return false
            case 0..<0x20:
                return false
            default:
                if byte >= 0x80 { isASCII = false }
                index += 1
            }
        }
        return false
    }

    private mutating func skipNumber() -> Bool {
        _ = take(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if take(UInt8(ascii: ".")) {
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            // Out-of-range exponents are the general parser's to judge.
            return false
        }
        return true
    }

    private mutating func word(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        index += count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhiteSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// A key's bytes, compared with literals without making a `String`.
struct RawKey {
    let bytes: UnsafeBufferPointer<UInt8>

    static func ~= (pattern: StaticString, key: RawKey) -> Bool {
        pattern.utf8CodeUnitCount == key.bytes.count
            && memcmp(pattern.utf8Start, key.bytes.baseAddress!, key.bytes.count) == 0
    }
}

/// The strings a reader has made for names, by their bytes, so each name is made once per reader.
final class NameTable {
    private var entries: [(bytes: [UInt8], string: String)] = []
    private let capacity = 256

    func string(for bytes: UnsafeBufferPointer<UInt8>) -> String {
        for entry in entries where entry.bytes.count == bytes.count {
            if entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return entry.string
            }
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if entries.count < capacity { entries.append((Array(bytes), string)) }
        return string
    }
}
