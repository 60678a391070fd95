import ChainTraceFastPath
import ChainTrace
import ChainTraceJSON

/// A command line's fields kept as text: the line's members other than kind, id and entry, copied byte for byte
/// (values as written, in the line's order). What a replay hands the trace log as each command's payload, so a
/// line is not parsed into a tree a second time nor the tree written out again (measured: the two were half the
/// cost of `replay --trace-out` on a flat stream).
final class JSONFieldsText: EncodedPayload {
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var value: JSONValue {
        let parsed: JSONValue? = bytes.withUnsafeBufferPointer { try? JSONParser.parse($0) }
        return parsed ?? [:]
    }

    /// The fields of `line` (a command line the stream reader accepted) as text; `nil` when the fast cursor
    /// cannot walk it (a key with an escape), and the caller keeps the fields as a value instead.
    static func fields(ofLine line: UnsafeBufferPointer<UInt8>, names: NameTable) -> JSONFieldsText? {
        var cursor = JSONByteCursor(bytes: line, names: names)
        var text: [UInt8] = [UInt8(ascii: "{")]
        text.reserveCapacity(line.count)
        let complete = cursor.members { cursor, key in
            switch key {
            case "kind", "id", "entry": return cursor.skipValue()
            default:
                let start = cursor.index
                guard cursor.skipValue() else { return false }
                if text.count > 1 { text.append(UInt8(ascii: ",")) }
                text.append(UInt8(ascii: "\""))
                text.append(contentsOf: key.bytes)
                text.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
                text.append(contentsOf: UnsafeBufferPointer(rebasing: line[start..<cursor.index]))
                return true
            }
        }
        guard complete else { return nil }
        text.append(UInt8(ascii: "}"))
        return JSONFieldsText(bytes: text)
    }
}

extension JSONCommand {
    /// The fields as text, for a command read from a stream line (``fields`` otherwise); `names` is the caller's
    /// table for the cursor.
    package func fieldsText(names: NameTable) -> (any EncodedPayload)? {
        guard storage.fieldsInLine else { return nil }
        return storage.withLine { JSONFieldsText.fields(ofLine: $0, names: names) }
    }
}
