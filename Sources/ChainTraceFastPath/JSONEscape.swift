/// The escapes of JSON strings — what may follow a backslash, and the bytes each stands for — in one place, for
/// both readers: the general parser (ChainTraceJSON's `JSONParser`), which turns a failure into an error naming
/// its position, and ``JSONByteCursor``, which steps over or decodes escapes on the fast path. Sharing the rules
/// is what makes the fast path accept exactly what the general one does. What it buys: escapes decoded on the fast
/// path instead of every line with one going to the general parser (`chaintrace-cli-benchmarks`, *escaped* shape).
@usableFromInline package enum JSONEscape {
    /// Why an escape is not valid, and where in the bytes the reader should say so.
    @usableFromInline package enum Failure: Equatable, Sendable {
        /// The input ends after the backslash.
        case missingEscape(at: Int)
        /// The character after the backslash is not one of `" \ / b f n r t u`.
        case unknownEscape(at: Int)
        /// The input ends within the four hex digits of a `\u` escape.
        case missingHexDigit(at: Int)
        /// A `\u` escape has something other than a hex digit.
        case badHexDigit(at: Int)
        /// A high surrogate is not followed by a `\u` escape.
        case missingLowSurrogate(at: Int)
        /// A high surrogate is followed by a `\u` escape that is not a low surrogate.
        case badLowSurrogate(at: Int)
        /// A low surrogate comes without a high one before it.
        case lowSurrogateFirst(at: Int)
    }

    /// Reads the escape that follows a backslash: `index` is just past the backslash, and on success just past
    /// the escape, with its character's UTF-8 bytes handed to `emit` (a surrogate pair is one character).
    ///
    /// - Returns: `nil`, or why the escape is not valid.
    @inlinable @inline(__always)
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, emit: (UInt8) -> Void)
        -> Failure?
    {
        guard index < bytes.count else { return .missingEscape(at: index) }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): emit(escape)
        case UInt8(ascii: "b"): emit(0x08)
        case UInt8(ascii: "f"): emit(0x0C)
        case UInt8(ascii: "n"): emit(0x0A)
        case UInt8(ascii: "r"): emit(0x0D)
        case UInt8(ascii: "t"): emit(0x09)
        case UInt8(ascii: "u"):
            var code: UInt32 = 0
            if let failure = unicode(bytes, at: &index, into: &code) { return failure }
            // Never a surrogate and at most 0x10FFFF here, so always a scalar.
            guard let scalar = Unicode.Scalar(code) else { return .badHexDigit(at: index - 4) }
            UTF8.encode(scalar, into: emit)
        default:
            return .unknownEscape(at: index - 1)
        }
        return nil
    }

    /// Steps over the escape that follows a backslash, as ``read(_:at:emit:)`` reads it but with nothing to
    /// emit: `index` is just past the backslash, and on success just past the escape. `false` where `read` fails.
    ///
    /// What it buys: stepping over a string's `\u` escapes without encoding their characters or making a
    /// `Failure`. Tested against `read` on generated escapes (`FastPathAlgorithmTests`).
    @inlinable @inline(__always)
    package static func skip(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Bool {
        guard index < bytes.count else { return false }
        let escape = bytes[index]
        index &+= 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            var code: UInt32 = 0
            return unicode(bytes, at: &index, into: &code) == nil
        default:
            return false
        }
    }

    /// Reads the rest of a `\u` escape (`index` is past the `u`) into `code`: four hex digits, and for a high
    /// surrogate the `\u` escape of its low one, combined into one code point.
    @inlinable @inline(__always)
    static func unicode(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, into code: inout UInt32) -> Failure? {
        if let failure = hex4(bytes, at: &index, into: &code) { return failure }
        if code >= 0xDC00 && code < 0xE000 { return .lowSurrogateFirst(at: index - 4) }
        if code >= 0xD800 && code < 0xDC00 {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                return .missingLowSurrogate(at: index)
            }
            index += 2
            var low: UInt32 = 0
            if let failure = hex4(bytes, at: &index, into: &low) { return failure }
            guard low >= 0xDC00 && low < 0xE000 else { return .badLowSurrogate(at: index - 4) }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        return nil
    }

    /// Reads four hex digits at `index` into `value`.
    @inlinable
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, into value: inout UInt32) -> Failure? {
        if index &+ 4 <= bytes.count, let base = bytes.baseAddress {
            let word = UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self))
            if let digits = hexValue(of: word) {
                value = value << 16 | digits
                index &+= 4
                return nil
            }
        }
        // Cut short or not all hex digits: read one at a time, to say which byte is wrong.
        for _ in 0..<4 {
            guard index < bytes.count else { return .missingHexDigit(at: index) }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte &- UInt8(ascii: "a") &+ 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte &- UInt8(ascii: "A") &+ 10)
            default: return .badHexDigit(at: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return nil
    }

    /// The value of the four hex digits in `word` (the first digit in its lowest byte), or `nil` when a byte is no
    /// hex digit: all four bytes judged and converted at once, each a lane of the word.
    ///
    /// What it buys: a `\u` escape's digits without a branch for each byte. callgrind, `chaintrace replay` of
    /// 100 000 *varied* lines (12 `\u` escapes a line): `JSONEscape.skip` and the string skipping that calls it
    /// 252.4 M → 205.6 M instructions (now inlined there), of ~1 800 M for the whole replay. Tested on
    /// generated words against the standard library, and through `read` and `skip` against a plain reading of
    /// every byte value in every position (`FastPathAlgorithmTests`).
    @inlinable @inline(__always)
    package static func hexValue(of word: UInt32) -> UInt32? {
        let lanes: UInt32 = 0x0101_0101
        let high: UInt32 = 0x8080_8080
        // Bytes of 0x80 and more are no digit; below it, adding 0x80 - k sets a lane's high bit exactly when the
        // byte is at least k, with no carry into the next lane.
        guard word & high == 0 else { return nil }
        func atLeast(_ bytes: UInt32, _ k: UInt32) -> UInt32 { (bytes &+ (0x80 &- k) &* lanes) & high }
        let digit = atLeast(word, 0x30) & ~atLeast(word, 0x3A)
        let lower = word | 0x2020_2020
        let letter = atLeast(lower, 0x61) & ~atLeast(lower, 0x67)
        guard digit | letter == high else { return nil }
        // A digit's value is its low four bits; a letter's (`a`/`A` = 1 … `f`/`F` = 6) plus 9.
        let nibbles = (word & 0x0F0F_0F0F) &+ (letter >> 7) &* 9
        // The four nibbles, the first digit's in the lowest lane, gathered into one number, the first digit's highest.
        let pairs = (nibbles & 0x000F_000F) << 4 | (nibbles >> 8) & 0x000F_000F
        return (pairs & 0xFF) << 8 | (pairs >> 16) & 0xFF
    }
}
