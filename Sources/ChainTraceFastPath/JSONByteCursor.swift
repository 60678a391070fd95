#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A position in one line of JSON bytes, with the steps the fast line decoders are made of.
///
/// Each step answers `nil` or `false` for anything it does not fully understand — escapes in names, numbers it
/// cannot convert exactly, bad syntax — and the caller then hands the whole line to the general `JSONParser` (ChainTraceJSON),
/// which accepts it or reports the exact error. So a fast path never accepts what the general path refuses.
///
/// `public` and `@inlinable`, though ChainTraceFastPath is no product: its steps run for every byte of the trace
/// log and command stream decoders in other modules, and Swift 6.3 does not inline `package` declarations across
/// modules (called out of line, they cost the replay of a million commands about a third of its speed:
/// `chaintrace-cli-benchmarks`, "replay" column, and the "stats" rows). The
/// general path it falls back to, and the step that makes a `JSONValue`, are in ChainTraceJSON.
@usableFromInline package struct JSONByteCursor {
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package var index = 0
    /// Not retained: a cursor lives for one line, inside a call on the decoder that holds the table (as the
    /// bytes it reads are not owned either). Retaining it costs two atomic operations per line: replaying a flat
    /// million-command stream took 7.5% longer with it retained (best of 7 interleaved runs; a stream of varied
    /// lines and `stats` moved by less than 3%, within the noise).
    @usableFromInline package let names: UnretainedObject<NameTable>
    /// How many objects and arrays enclose the cursor: with the ones a value opens, at most ``maximumDepth``, as
    /// the general parser allows. Counted by ``members(_:)`` and ``elements(_:)``; a decoder that opens a
    /// line's object itself sets it.
    @usableFromInline package var depth = 0

    @inlinable package init(bytes: UnsafeBufferPointer<UInt8>, names: NameTable) {
        self.bytes = bytes
        self.names = UnretainedObject(names)
    }

    /// Whether only white space is left.
    @inlinable package mutating func isAtEnd() -> Bool {
        skipWhiteSpace()
        return index == bytes.count
    }

    /// Walks an object's members, calling `member` with each key (the value still to read); `false` (the general
    /// parser then reports the exact error) for bad syntax, a key given twice, a key with an escape or non-ASCII
    /// text, more than ``maximumFastMembers`` members, or an object past ``maximumDepth``.
    @inlinable package mutating func members(_ member: (inout JSONByteCursor, RawKey) -> Bool) -> Bool {
        skipWhiteSpace()
        guard depth < Self.maximumDepth, take(UInt8(ascii: "{")) else { return false }
        depth &+= 1
        defer { depth &-= 1 }
        skipWhiteSpace()
        if take(UInt8(ascii: "}")) { return true }
        // The keys seen so far, on the stack: a repeated key must not pass as "the last one wins".
        return withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: Self.maximumFastMembers) {
            seen in
            var count = 0
            while true {
                skipWhiteSpace()
                guard let key = rawString(), count < Self.maximumFastMembers else { return false }
                for index in 0..<count
                where seen[index].count == key.bytes.count && seen[index].elementsEqual(key.bytes) {
                    return false
                }
                seen[count] = key.bytes
                count += 1
                skipWhiteSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipWhiteSpace()
                guard member(&self, key) else { return false }
                skipWhiteSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }
    }

    /// The most members an object may have on the fast path; a larger one is read by the general parser.
    @usableFromInline package static var maximumFastMembers: Int { 64 }

    /// The most objects and arrays that may enclose a value, its own included, as in the general parser.
    @usableFromInline package static var maximumDepth: Int { 512 }

    /// Walks an array's elements, calling `element` with the cursor at each; `false` on any problem.
    @inlinable package mutating func elements(_ element: (inout JSONByteCursor) -> Bool) -> Bool {
        skipWhiteSpace()
        guard depth < Self.maximumDepth, take(UInt8(ascii: "[")) else { return false }
        depth &+= 1
        defer { depth &-= 1 }
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
    @inlinable package mutating func rawString() -> RawKey? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        index += plainStringByteCount()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        defer { index += 1 }
        return RawKey(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index]))
    }

    /// How many bytes from `index` on a string can hold with no second look: none is `"`, `\`, a control byte
    /// or non-ASCII. Reads eight bytes at a time, since most strings in a line are names and ids of a few
    /// ASCII letters.
    @inline(__always)
    @inlinable package func plainStringByteCount() -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return Self.plainByteCount(base, from: index, end: bytes.count)
    }

    /// The high bit of each byte of `word` (first byte lowest) that is `"`, `\`, below 0x20 or from 0x80 up. Bytes
    /// after the first one flagged may be flagged wrongly (a borrow carries up), so only the lowest flag counts.
    @inline(__always)
    @inlinable package static func bytesNeedingALook(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let isQuote = (quotes &- ones) & ~quotes
        let isBackslash = (backslashes &- ones) & ~backslashes
        let isControl = (word &- ones &* 0x20) & ~word
        return (isQuote | isBackslash | isControl | word) & (ones &* 0x80)
    }

    /// A string that is usually one of a few (handler names, kinds): the same `String` is handed out for the
    /// same bytes, so repeated names cost no allocation.
    @inlinable package mutating func name() -> String? {
        let start = index
        guard let raw = rawString() else {
            index = start
            return string()
        }
        return names.withObject { $0.string(for: raw.bytes) }
    }

    /// A string, escapes decoded; `nil` for anything the general parser rejects.
    @inlinable package mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        index += plainStringByteCount()
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return isASCII ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
            if byte < 0x20 { return nil }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        return nil
    }

    /// The rest of a string with escapes, from `start` (just after its opening quote; the cursor is at its first
    /// backslash), decoded as the general parser decodes it; `nil` for anything it would reject. Out of line: a
    /// string with escapes is the rare one.
    @usableFromInline mutating func escapedString(from start: Int) -> String? {
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard JSONEscape.read(bytes, at: &index, emit: { text.append($0) }) == nil else { return nil }
            case 0..<0x20:
                return nil
            default:
                text.append(byte)
                index += 1
            }
        }
        return nil
    }

    /// An integer (no fraction or exponent) within Int64, at least `minimum`.
    @inlinable package mutating func integer(atLeast minimum: Int64 = .min) -> Int64? {
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
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        let result = negative ? -value : value
        return result >= minimum ? result : nil
    }

    @inlinable package mutating func null() -> Bool {
        guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// Steps over any valid JSON value; `false` if it is not valid (or nests deeper than ``maximumDepth``, counting
    /// from ``depth``).
    @inlinable package mutating func skipValue() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return skipContainer()
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "t"): return word("true")
        case UInt8(ascii: "f"): return word("false")
        case UInt8(ascii: "n"): return null()
        default: return skipNumber()
        }
    }

    /// The most keys the objects open at once in ``skipContainer()`` may hold between them; a value with more is
    /// left to the general parser.
    @usableFromInline package static var maximumOpenKeys: Int { 128 }

    /// The most containers ``skipContainer()`` keeps open at once; a value nested deeper is left to the general
    /// parser.
    ///
    /// This and ``maximumOpenKeys`` keep each of its two stacks within 1 KiB, which the standard library's
    /// temporary allocations put on the stack; a larger one went to `malloc` on every call, ~1 800 more
    /// instructions a line for the benchmark's *varied* stream shape, a few small objects a line (callgrind).
    @usableFromInline package static var maximumOpenContainers: Int { 256 }

    /// Steps over the object or array at `index`, and everything in it, as ``members(_:)`` and ``elements(_:)``
    /// would with ``skipValue()`` for each member — with the same answers: `false` for bad syntax, a key twice in
    /// one object, a key with an escape or non-ASCII text, more than ``maximumFastMembers`` members in an object,
    /// nesting past ``maximumDepth``, or (here only) more than ``maximumOpenKeys`` keys in the objects open at
    /// once or more than ``maximumOpenContainers`` containers.
    ///
    /// What it buys: one loop with the position in a register, and the containers open on a stack of its own,
    /// instead of a call (and a closure) a member with the cursor in memory. Replaying the benchmark's *nested*
    /// stream shape, whose lines are mostly one nested member the chain does not read: 0.68–0.76 s a million
    /// lines with the recursive walk, 0.59–0.65 s with this one (six interleaved runs of `chaintrace replay`);
    /// 14% fewer instructions (callgrind, 100 000 lines).
    /// Tested against the general parser on generated damaged values (`JSONByteCursorTests`).
    @usableFromInline mutating func skipContainer() -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let end = bytes.count
        let enclosing = depth
        // Each open container: the index in `keys` where its keys begin, or -1 for an array.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.maximumOpenContainers) { open in
            withUnsafeTemporaryAllocation(of: (start: Int32, count: Int32).self, capacity: Self.maximumOpenKeys) {
                keys in
                var i = index
                var openCount = 0
                var keyCount = 0

                while true {
                    // A value starts at `i`.
                    guard i < end else { return false }
                    let first = base[i]
                    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                        guard enclosing &+ openCount < Self.maximumDepth, openCount < Self.maximumOpenContainers else {
                            return false
                        }
                        i &+= 1
                        Self.skipWhiteSpace(base, &i, end)
                        if first == UInt8(ascii: "{") {
                            open[openCount] = Int32(truncatingIfNeeded: keyCount)
                            openCount &+= 1
                            if i < end, base[i] == UInt8(ascii: "}") {
                                i &+= 1
                                openCount &-= 1
                            } else {
                                guard Self.key(base, &i, end, keys, from: keyCount, &keyCount) else { return false }
                                continue
                            }
                        } else {
                            open[openCount] = -1
                            openCount &+= 1
                            if i < end, base[i] == UInt8(ascii: "]") {
                                i &+= 1
                                openCount &-= 1
                            } else {
                                continue
                            }
                        }
                    } else if first == UInt8(ascii: "\"") {
                        // Most strings are plain: stepped over here; the rest by ``skipString()``.
                        let count = Self.plainByteCount(base, from: i &+ 1, end: end)
                        if i &+ 1 &+ count < end, base[i &+ 1 &+ count] == UInt8(ascii: "\"") {
                            i &+= count &+ 2
                        } else {
                            index = i &+ 1 &+ count
                            guard skipRestOfString() else { return false }
                            i = index
                        }
                    } else {
                        index = i
                        let scalar: Bool
                        switch first {
                        case UInt8(ascii: "t"): scalar = word("true")
                        case UInt8(ascii: "f"): scalar = word("false")
                        case UInt8(ascii: "n"): scalar = null()
                        default: scalar = skipNumber()
                        }
                        guard scalar else { return false }
                        i = index
                    }
                    // After a value: the next member or element, or the end of containers.
                    while true {
                        guard openCount > 0 else {
                            index = i
                            return true
                        }
                        Self.skipWhiteSpace(base, &i, end)
                        guard i < end else { return false }
                        let keysStart = open[openCount &- 1]
                        let byte = base[i]
                        if byte == UInt8(ascii: ",") {
                            i &+= 1
                            Self.skipWhiteSpace(base, &i, end)
                            if keysStart >= 0 {
                                guard Self.key(base, &i, end, keys, from: Int(keysStart), &keyCount) else {
                                    return false
                                }
                            }
                            break
                        }
                        guard byte == (keysStart >= 0 ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                        i &+= 1
                        openCount &-= 1
                        if keysStart >= 0 { keyCount = Int(keysStart) }
                    }
                }
            }
        }
    }

    /// Steps `i` over white space: for ``skipContainer()``, which keeps its position in a local, and
    /// ``skipWhiteSpace()``.
    @inline(__always)
    @inlinable static func skipWhiteSpace(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) {
        // One comparison for the usual case, a byte that is no white space.
        while i < end, base[i] <= UInt8(ascii: " ") {
            switch base[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): i &+= 1
            default: return
            }
        }
    }

    /// For ``skipContainer()``: reads the key at `i`, checks it against the others of its object (those in `keys`
    /// from `first` up to `keyCount`), adds it, and steps past the colon after it and the white space after that.
    @inline(__always)
    @usableFromInline static func key(
        _ base: UnsafePointer<UInt8>,
        _ i: inout Int,
        _ end: Int,
        _ keys: UnsafeMutableBufferPointer<(start: Int32, count: Int32)>,
        from first: Int,
        _ keyCount: inout Int
    ) -> Bool {
        guard i < end, base[i] == UInt8(ascii: "\"") else { return false }
        let start = i &+ 1
        let count = plainByteCount(base, from: start, end: end)
        i = start &+ count
        guard i < end, base[i] == UInt8(ascii: "\"") else { return false }
        i &+= 1
        guard keyCount &- first < maximumFastMembers, keyCount < keys.count else { return false }
        var other = first
        while other < keyCount {
            if Int(keys[other].count) == count, memcmp(base + Int(keys[other].start), base + start, count) == 0 {
                return false
            }
            other &+= 1
        }
        // Lines are far shorter than 2 GiB; a longer one is left to the general parser.
        guard start &+ count < Int(Int32.max) else { return false }
        keys[keyCount] = (Int32(truncatingIfNeeded: start), Int32(truncatingIfNeeded: count))
        keyCount &+= 1
        skipWhiteSpace(base, &i, end)
        guard i < end, base[i] == UInt8(ascii: ":") else { return false }
        i &+= 1
        skipWhiteSpace(base, &i, end)
        return true
    }

    /// ``plainStringByteCount()`` from `start`: how many bytes from there on are none of `"`, `\`, a control
    /// byte or non-ASCII, for a walk that keeps its position in a local.
    @inline(__always)
    @inlinable static func plainByteCount(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        runLength(base, from: start, end: end, flags: bytesNeedingALook) { byte in
            byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte >= 0x20 && byte < 0x80
        }
    }

    /// How many bytes from `start` on belong to a run: eight at a time while `flags` (the high bit of each byte
    /// of a little-endian word that ends the run, exact up to the first) flags none, then one at a time by
    /// `belongs`.
    @inline(__always)
    @inlinable static func runLength(
        _ base: UnsafePointer<UInt8>,
        from start: Int,
        end: Int,
        flags: (UInt64) -> UInt64,
        belongs: (UInt8) -> Bool
    ) -> Int {
        var offset = start
        while offset &+ 8 <= end {
            let found = flags(UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)))
            if found != 0 { return offset &+ found.trailingZeroBitCount &>> 3 &- start }
            offset &+= 8
        }
        while offset < end, belongs(base[offset]) { offset &+= 1 }
        return offset &- start
    }

    /// Steps over a string, escapes included; `false` for anything the general parser rejects: a bad escape, a
    /// `\u` escape that is not four hex digits, a surrogate without its pair, a control byte, invalid UTF-8.
    /// Each non-ASCII character is checked where it stands, and the one-letter escapes are stepped over here:
    /// checking each run of non-ASCII bytes afterwards, and reading every escape through ``JSONEscape``, made
    /// replaying the benchmark's *escaped* stream shape ~15% slower.
    @inlinable package mutating func skipString() -> Bool {
        index &+= 1
        return skipRestOfString()
    }

    /// ``skipString()`` from inside the string: `index` is past its opening quote, and any bytes before it are
    /// plain (no `"`, `\`, control byte or non-ASCII byte).
    @inlinable package mutating func skipRestOfString() -> Bool {
        while true {
            index &+= plainStringByteCount()
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index &+= 1
                return true
            case UInt8(ascii: "\\"):
                if index &+ 1 < bytes.count {
                    switch bytes[index &+ 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index &+= 2
                        continue
                    default: break
                    }
                }
                index &+= 1
                guard JSONEscape.skip(bytes, at: &index) else { return false }
            case 0..<0x20:
                return false
            default:
                // Non-ASCII: each character's bytes checked as they come.
                repeat {
                    let length = UTF8Validation.sequenceLength(bytes, at: index)
                    guard length > 0 else { return false }
                    index &+= length
                } while index < bytes.count && bytes[index] >= 0x80
            }
        }
    }

    /// The most digits before the point a number may have on the fast path: more could overflow a 64-bit float,
    /// which only the general parser judges.
    @usableFromInline package static var maximumFastIntegerDigits: Int { 300 }

    /// Steps over a number; `false` for bad syntax and for any number the general parser would reject as too
    /// large for a 64-bit float. A number with an exponent is judged by its order of magnitude, counted while
    /// stepping over it: below 10^308 it is finite, from 10^309 it is not, and only in between is it converted
    /// (as the general parser converts it) to see. A very long integer part is left to the general parser.
    ///
    /// Converting every exponent number instead (making a `String` and calling `strtod`) took 14% of a replay of
    /// a stream whose lines carry a few such numbers each (perf, the benchmark's *varied* shape).
    @inlinable package mutating func skipNumber() -> Bool {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else { return false }
        // Digits are counted along the integer part, then the fraction: `firstSignificant` is the position of the
        // first one that is not 0 (-1 while there is none), so the value lies in
        // [10^(integerDigits - firstSignificant - 1 + exponent), 10 times that).
        var integerDigits = 1
        var firstSignificant = -1
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            let digitsStart = index
            index &+= digitRunLength()
            integerDigits = index - digitsStart
            guard integerDigits <= Self.maximumFastIntegerDigits else { return false }
            firstSignificant = 0
        }
        if take(UInt8(ascii: ".")) {
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            let fractionStart = index
            // Zeros up to the first significant digit, if there has been none; then the rest of the run.
            while firstSignificant < 0, index < bytes.count, isDigit(bytes[index]) {
                if bytes[index] != UInt8(ascii: "0") { firstSignificant = integerDigits + (index - fractionStart) }
                index += 1
            }
            index &+= digitRunLength()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            var exponent = 0
            while index < bytes.count, isDigit(bytes[index]) {
                // Saturates: past a million the answer no longer depends on the exponent's size.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
                index += 1
            }
            // Zero, whatever its exponent, is finite.
            guard firstSignificant >= 0 else { return true }
            let magnitude = integerDigits - firstSignificant - 1 + (exponentNegative ? -exponent : exponent)
            if magnitude < 308 { return true }
            if magnitude > 308 { return false }
            // Between 10^308 and 10^309: whether it is below Double.greatestFiniteMagnitude, as converted.
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            return Double(text)?.isFinite ?? false
        }
        return true
    }

    /// How many bytes from `index` on are decimal digits. Reads eight bytes at a time: in a stream of floats
    /// written in full (the benchmark's *varied* shape), most digits are in runs of ten and more.
    @inline(__always)
    @inlinable package func digitRunLength() -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return Self.runLength(base, from: index, end: bytes.count, flags: Self.bytesThatAreNoDigit, belongs: isDigit)
    }

    /// The high bit of each byte of `word` (first byte lowest) that is not `0`–`9`. As in
    /// ``bytesNeedingALook(_:)``, only the lowest flag is exact: a byte below `0` borrows from the bytes after
    /// it, and one from 0xBA up carries into them, but a digit does neither.
    @inline(__always)
    @inlinable package static func bytesThatAreNoDigit(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Above `9`: adding 0x46 sets the high bit. Below `0`: subtracting 0x30 borrows. From 0x80 up, one or
        // the other sets it.
        return ((word &+ ones &* 0x46) | (word &- ones &* 0x30)) & (ones &* 0x80)
    }

    @inlinable package mutating func word(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        index += count
        return true
    }

    @inlinable @inline(__always) package mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inlinable @inline(__always) package mutating func skipWhiteSpace() {
        guard let base = bytes.baseAddress else { return }
        Self.skipWhiteSpace(base, &index, bytes.count)
    }

    @inlinable @inline(__always) package func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
