import ChainTraceFastPath

/// A strict JSON reader over bytes: RFC 8259, no comments, no trailing commas, no duplicate member names (a
/// duplicate is an error at its position, never a guess at which one wins), and an exact position for every error.
package struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let firstLine: Int
    private var maximumDepth = 512
    /// When set, the byte offset where each value starts, keyed by its path (`handlers[2].accepts`).
    private var offsets: [String: Int]?
    private var path: [String] = []

    /// Parses one JSON value that must fill `bytes` (surrounding white space allowed).
    ///
    /// - Parameters:
    ///   - bytes: The text, UTF-8.
    ///   - line: The line number of the text's first byte, for error positions.
    ///   - enclosingDepth: How many objects and arrays the text stands in, counted against the nesting limit
    ///     (for a value cut out of a larger document).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int = 1, enclosingDepth: Int = 0)
        throws(JSONParseError) -> JSONValue
    {
        var parser = JSONParser(bytes: bytes, firstLine: line)
        parser.skipWhiteSpace()
        let value = try parser.parseValue(depth: enclosingDepth)
        parser.skipWhiteSpace()
        if parser.index < bytes.count { throw parser.trailingContent() }
        return value
    }

    /// Parses a whole document and remembers where each value starts, for errors about its meaning.
    package static func parseDocument(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> (
        JSONValue, [String: Int]
    ) {
        var parser = JSONParser(bytes: bytes, firstLine: 1)
        parser.offsets = [:]
        parser.skipWhiteSpace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhiteSpace()
        if parser.index < bytes.count { throw parser.trailingContent() }
        return (value, parser.offsets ?? [:])
    }

    /// Parses one JSON value from a string.
    package static func parse(_ text: String, line: Int = 1) throws(JSONParseError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, line: line) }
        }
        return try result.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, firstLine: Int) {
        self.bytes = bytes
        self.firstLine = firstLine
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error(expected: "a JSON value") }
        if offsets != nil { offsets?[path.joined()] = index }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error(expected: "a JSON value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw error(expected: "at most \(maximumDepth) levels of nesting") }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhiteSpace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            return .object(members)
        }
        while true {
            skipWhiteSpace()
            guard peek(UInt8(ascii: "\"")) else { throw error(expected: "a member name in double quotes") }
            let keyStart = index
            let key = try parseString()
            skipWhiteSpace()
            guard peek(UInt8(ascii: ":")) else { throw error(expected: "':' after the member name") }
            index += 1
            skipWhiteSpace()
            if offsets != nil { path.append(path.isEmpty ? key : ".\(key)") }
            // One hash lookup inserts the member and tells whether its name came before.
            if members.updateValue(try parseValue(depth: depth), forKey: key) != nil {
                throw error(
                    expected: "each member name once in an object",
                    at: keyStart,
                    found: "\"\(key.prefix(40))\" a second time"
                )
            }
            if offsets != nil { path.removeLast() }
            skipWhiteSpace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            guard peek(UInt8(ascii: "}")) else { throw error(expected: "',' or '}'") }
            index += 1
            return .object(members)
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw error(expected: "at most \(maximumDepth) levels of nesting") }
        index += 1
        var elements: [JSONValue] = []
        skipWhiteSpace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhiteSpace()
            if offsets != nil { path.append("[\(elements.count)]") }
            elements.append(try parseValue(depth: depth))
            if offsets != nil { path.removeLast() }
            skipWhiteSpace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            guard peek(UInt8(ascii: "]")) else { throw error(expected: "',' or ']'") }
            index += 1
            return .array(elements)
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes. Each non-ASCII character is checked where it stands, so that an error names the
        // byte at fault, not the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += byte < 0x80 ? 1 : try characterLength()
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // Every byte appended is of a character checked where it stood, or of an escape's scalar.
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                if let failure = JSONEscape.read(bytes, at: &index, emit: { scalars.append($0) }) {
                    throw error(for: failure)
                }
            case 0..<0x20:
                throw error(expected: "a control character to be escaped (\\n, \\t, \\u00XX)")
            case 0x80...:
                let length = try characterLength()
                scalars.append(contentsOf: bytes[index..<index + length])
                index += length
            default:
                scalars.append(byte)
                index += 1
            }
        }
        throw error(expected: "'\"' to close the string")
    }

    /// The error for an escape that is not valid, at the place it names.
    private func error(for failure: JSONEscape.Failure) -> JSONParseError {
        switch failure {
        case .missingEscape(let position): error(expected: "an escape character", at: position)
        case .unknownEscape(let position): error(expected: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u", at: position)
        case .missingHexDigit(let position): error(expected: "four hex digits", at: position)
        case .badHexDigit(let position): error(expected: "a hex digit", at: position)
        case .missingLowSurrogate(let position):
            error(expected: "a low surrogate \\uDC00-\\uDFFF after a high surrogate", at: position)
        case .badLowSurrogate(let position): error(expected: "a low surrogate \\uDC00-\\uDFFF", at: position)
        case .lowSurrogateFirst(let position): error(expected: "a high surrogate before a low one", at: position)
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
        } else if index < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
            skipDigits()
        } else {
            throw error(expected: "a digit")
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(expected: "a digit after '.'") }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(expected: "a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            // The number as written (its first character alone said nothing), shortened when it is long.
            let shown = text.count <= 40 ? text : "\(text.prefix(32))… (\(text.count) characters)"
            throw error(expected: "a number that fits a 64-bit float", at: start, found: shown)
        }
        return .double(double)
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let start = index
        for byte in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == byte else {
                // At the word's start, with what is written there: as far as it matched, and what broke it off.
                let matched = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                let breaking =
                    if index >= bytes.count {
                        "the end of the input"
                    } else if bytes[index] >= 0x20 && bytes[index] < 0x7F {
                        "'\(Character(Unicode.Scalar(bytes[index])))'"
                    } else {
                        "byte 0x\(String(bytes[index], radix: 16, uppercase: true))"
                    }
                throw error(expected: "'\(word)'", at: start, found: "'\(matched)' then \(breaking)")
            }
            index += 1
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private mutating func skipWhiteSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    /// How many bytes the non-ASCII character at `index` takes, or an error at its first byte when it is not
    /// well-formed UTF-8 (cut short, overlong, a surrogate, past U+10FFFF, or a stray continuation byte).
    private func characterLength() throws(JSONParseError) -> Int {
        let length = UTF8Validation.sequenceLength(bytes, at: index)
        guard length > 0 else { throw error(expected: "valid UTF-8 in the string", found: malformedCharacter()) }
        return length
    }

    /// The bytes of the malformed character at `index`, as a reader can find them in a hex dump: its first byte and
    /// the continuation bytes after it (at most four in all).
    private func malformedCharacter() -> String {
        var end = index + 1
        while end < bytes.count, end < index + 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let hex = bytes[index..<end].map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0x0" + digits : "0x" + digits
        }
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let kind =
            switch lead {
            case 0x80...0xBF: "a continuation byte with no character before it"
            case 0xC0, 0xC1, 0xF5...: "a byte UTF-8 text never holds"
            case _ where end - index < length: "a character cut short"
            case 0xED: "a surrogate, which UTF-8 text may not hold"
            case 0xF4: "past U+10FFFF"
            default: "an overlong form"
            }
        return "\(hex.count == 1 ? "byte" : "bytes") \(hex.joined(separator: " ")) (\(kind))"
    }

    /// The error for what follows a whole value: named ``JSONParseError/Stop/anotherValue`` when it starts another
    /// object or array.
    private func trailingContent() -> JSONParseError {
        var error = error(expected: "end of the value")
        if bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") { error.stop = .anotherValue }
        return error
    }

    private func error(expected: String, at position: Int? = nil, found foundText: String? = nil) -> JSONParseError {
        let position = min(position ?? index, bytes.count)
        var line = firstLine
        var lineStart = 0
        for offset in 0..<position where bytes[offset] == UInt8(ascii: "\n") {
            line += 1
            lineStart = offset + 1
        }
        let found: String
        if let foundText {
            found = foundText
        } else if position >= bytes.count {
            found = "the end of the input"
        } else {
            let byte = bytes[position]
            if byte == 0xEF, position + 2 < bytes.count, bytes[position + 1] == 0xBB, bytes[position + 2] == 0xBF {
                // What some editors put at the start of a UTF-8 file: JSON text has none.
                found = "a byte order mark (EF BB BF; save the file as UTF-8 without one)"
            } else if byte >= 0x20 && byte < 0x7F {
                found = "'\(Character(Unicode.Scalar(byte)))'"
            } else {
                found = "byte 0x\(String(byte, radix: 16, uppercase: true))"
            }
        }
        return JSONParseError(
            line: line,
            column: position - lineStart + 1,
            expected: expected,
            found: found,
            stop: foundText == nil && position >= bytes.count ? .endOfText : .other
        )
    }
}
