/// Writes JSON text with object keys in sorted order, so the same value always gives the same bytes.
package struct JSONWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    package init() {}

    /// Makes room for `count` bytes in all, so that a writer of a known typical size grows its buffer once.
    package mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    /// Forgets what was written, keeping the room it took (a writer reused for every line of a log).
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends one byte of JSON syntax (a bracket, a comma, a colon).
    package mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes that are already JSON text in context.
    package mutating func append(bytes more: some Sequence<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Appends `text` as a JSON string literal to `bytes`, as ``write(_:)-(String)`` does.
    package static func append(string text: String, to bytes: inout [UInt8]) {
        var writer = JSONWriter()
        swap(&writer.bytes, &bytes)
        writer.write(text)
        swap(&writer.bytes, &bytes)
    }

    /// Appends `value` as compact JSON text (no spaces, no newline).
    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .integer(let number): write(number)
        case .double(let number): write(number)
        case .string(let text): write(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            writeObject(members.sorted { $0.key < $1.key }) { writer, member in writer.write(member) }
        }
    }

    /// Appends an object whose members are already in the order wanted; `writeMember` writes each value.
    package mutating func writeObject<Member>(
        _ members: [(key: String, value: Member)],
        writeMember: (inout JSONWriter, Member) -> Void
    ) {
        bytes.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(member.key)
            bytes.append(UInt8(ascii: ":"))
            writeMember(&self, member.value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends `member` (JSON text such as `,"reason":`) and `text` as a string literal, when there is a `text`.
    package mutating func write(_ text: String?, after member: String) {
        guard let text else { return }
        append(member)
        write(text)
    }

    /// Appends a JSON string literal, escaping quotes, backslashes, control characters and U+FEFF.
    ///
    /// U+FEFF is written `\ufeff`: Foundation's `JSONSerialization` drops a raw one at the start of a string or
    /// after an escape, so a name holding one would not survive a Swift tool reading our files.
    package mutating func write(_ text: String) {
        // Most names and ids need no escape: copied at once.
        var text = text
        let copied = text.withUTF8 { utf8 -> Bool in
            for byte in utf8
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xEF {
                return false
            }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if copied { return }
        bytes.append(UInt8(ascii: "\""))
        // Bytes of a possible U+FEFF (EF BB BF) held back until the sequence is known: 0, 1 or 2 of them.
        var held = 0
        for byte in text.utf8 {
            if held > 0 {
                if held == 1, byte == 0xBB {
                    held = 2
                    continue
                }
                if held == 2, byte == 0xBF {
                    append("\\ufeff")
                    held = 0
                    continue
                }
                bytes.append(0xEF)
                if held == 2 { bytes.append(0xBB) }
                held = 0
            }
            if byte == 0xEF {
                held = 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        if held > 0 {
            bytes.append(0xEF)
            if held == 2 { bytes.append(0xBB) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends an integer (without allocating a string for it).
    package mutating func write(_ number: Int64) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, filled from the end
        withUnsafeMutableBytes(of: &digits) { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            // Byte by byte: for a few bytes, cheaper than a bulk append's set-up (measured).
            for digit in buffer[index...] { bytes.append(digit) }
        }
    }

    /// Appends a finite floating-point number in its shortest form that reads back exactly; non-finite numbers,
    /// which JSON cannot hold, are written as `null`.
    package mutating func write(_ number: Double) {
        guard number.isFinite else { return append("null") }
        let text = String(number)
        append(text)
        // Bytes, not characters: a character walk is several times slower on these few ASCII bytes.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
        {
            append(".0")
        }
    }

    /// Appends raw text; the caller makes sure it is valid JSON in context.
    package mutating func append(_ text: String) {
        // Literals and native strings are contiguous: read in place, a byte at a time (they are short).
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            for byte in utf8 { bytes.append(byte) }
        }
        if done == nil { bytes.append(contentsOf: text.utf8) }
    }
}
