import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFastPath
import ChainTraceJSON
import ChainTraceTraceLog

/// The fast path of ``CommandStreamReader``: decodes a command line straight from its bytes, filling the
/// ``FieldSchema``'s slots as it goes. `nil` for anything unusual (a change line, an escape in a name, a number
/// it cannot convert exactly, bad syntax); the reader then takes the general path, which accepts the line the
/// same way or reports the exact error.
///
/// It keeps the previous command and its slots, and refills them when nothing else holds them any more — so
/// replaying a stream allocates nothing per command.
struct CommandLineDecoder {
    let schema: FieldSchema?
    private let names = NameTable()
    private let keys = MemberKeyCache(placeholder: CommandMember.unread)
    /// The command last decoded, refilled for the next line once nothing else holds it.
    private var previous: JSONCommand?
    /// Whether decoded commands are refilled at all: not when they are handed to another thread, where "nothing
    /// else holds it" would be judged while that thread may still be letting go of it.
    var recycles = true

    /// Takes `command` as the one to refill next, if it holds none (see `CommandStreamReader.recycle`).
    mutating func offer(_ command: JSONCommand) {
        if previous == nil { previous = command }
    }

    init(schema: FieldSchema?) {
        self.schema = schema
    }

    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONCommand? {
        let decoded = JSONCommand.uniquelyHeld(recycling: &previous, slots: schema).withObject { storage in
            guard Self.commandLine(bytes, into: storage, schema: schema, names: names, keys: keys) else { return false }
            if storage.fieldsInLine {
                storage.setLine(bytes)
            } else {
                // The line is not kept, so neither can the id be.
                if let range = storage.idInLine {
                    storage.id = JSONCommand.Storage.text(range, of: bytes)
                    storage.idInLine = nil
                }
                if let schema { storage.slots?.fill(from: storage.fields, names: schema.names) }
            }
            return true
        }
        guard decoded else { return nil }
        guard recycles else { return previous.take() }
        return previous
    }
}

extension FieldSlots {
    /// Fills the slots from a `fields` object.
    func fill(from fields: JSONValue, names: [String]) {
        for (slot, name) in names.enumerated() {
            if let value = fields[name] { set(value, at: slot) }
        }
    }
}

extension CommandLineDecoder {
    /// Reads a command line's members into `storage` (which nothing else holds); `false` for anything the fast
    /// path leaves to the general one. The object's members are walked here rather than through
    /// ``JSONByteCursor/members(_:)``, so the cursor stays a local the compiler can keep in registers: through
    /// the closure (even inlined) it stays in memory, ~140 more instructions a line (callgrind).
    static func commandLine(
        _ bytes: UnsafeBufferPointer<UInt8>,
        into storage: JSONCommand.Storage,
        schema: FieldSchema?,
        names: NameTable,
        keys: MemberKeyCache<CommandMember>
    ) -> Bool {
        // Only what the previous line set is reset: most lines set the same members, and releasing a value
        // that is not there still costs a call.
        if storage.id != nil { storage.id = nil }
        storage.idInLine = nil
        if storage.entry != nil {
            storage.entry = nil
            storage.entryColumn = 0
        }
        if case .null = storage.fields {} else { storage.fields = .null }
        storage.fieldsInLine = true
        storage.membersOutsideFields = (0..<0, 0..<0, 0..<0)
        storage.slots?.clear()
        var kind: String?
        var hasFieldMembers = false
        var cursor = JSONByteCursor(bytes: bytes, names: names)
        cursor.skipWhiteSpace()
        guard cursor.take(UInt8(ascii: "{")) else { return false }
        // Its members' values stand in the line's object.
        cursor.depth = 1
        cursor.skipWhiteSpace()
        // Keys with an id are checked for repeats as they come, one bit each; a line with a key that has none is
        // checked at its end by comparing.
        var keysSeen: UInt64 = 0
        var everyKeyIdentified = true
        var position = 0
        if !cursor.take(UInt8(ascii: "}")) {
            while true {
                cursor.skipWhiteSpace()
                let member: CommandMember
                let keyStart = cursor.index
                var id = -1
                guard position < MemberKeyCache<CommandMember>.checkedKeys else { return false }
                if let known = keys.member(at: position, in: bytes, from: cursor.index, end: &cursor.index, id: &id)
                    ?? keys.lookUp(at: position, in: bytes, from: cursor.index, end: &cursor.index, id: &id)
                {
                    member = known
                    // The remembered text is the quoted key and its colon.
                    keys.lineKeys[position] = Range(uncheckedBounds: (keyStart &+ 1, cursor.index &- 2))
                } else {
                    guard let key = cursor.rawString() else { return false }
                    keys.lineKeys[position] = Range(uncheckedBounds: (keyStart &+ 1, cursor.index &- 1))
                    let colonFollows = cursor.index < bytes.count && bytes[cursor.index] == UInt8(ascii: ":")
                    if let known = keys.recall(key, in: bytes, from: keyStart, at: position, colonFollows: colonFollows)
                    {
                        (member, id) = known
                    } else {
                        member = CommandMember.named(key, schema: schema)
                        id = keys.remember(
                            key,
                            in: bytes,
                            from: keyStart,
                            as: member,
                            at: position,
                            colonFollows: colonFollows
                        )
                    }
                    cursor.skipWhiteSpace()
                    guard cursor.take(UInt8(ascii: ":")) else { return false }
                }
                if id >= 0 {
                    let bit: UInt64 = 1 &<< UInt64(id)
                    // A key twice: the general path reports it with its position.
                    guard keysSeen & bit == 0 else { return false }
                    keysSeen |= bit
                } else {
                    everyKeyIdentified = false
                }
                position += 1
                cursor.skipWhiteSpace()
                switch member {
                case .kind:
                    guard let text = cursor.name() else { return false }
                    kind = text
                case .id:
                    storage.idInLine = nil
                    if cursor.null() {
                        storage.id = nil
                    } else if cursor.index < cursor.bytes.count, cursor.bytes[cursor.index] == UInt8(ascii: "\"") {
                        let start = cursor.index
                        if let raw = cursor.rawString() {
                            // Plain ASCII, no escapes: left in the line until someone asks for it.
                            storage.id = nil
                            storage.idInLine = start + 1..<start + 1 + raw.bytes.count
                        } else {
                            cursor.index = start
                            guard let text = cursor.string() else { return false }
                            storage.id = text
                        }
                    } else {
                        guard let number = cursor.integer() else { return false }
                        storage.id = String(number)
                    }
                case .entry:
                    if cursor.null() {
                        storage.entry = nil
                    } else {
                        let start = cursor.index
                        guard let text = cursor.name() else { return false }
                        storage.entry = text
                        storage.entryColumn = start + 1
                    }
                case .fields:
                    guard let value = cursor.value(), case .object = value else { return false }
                    storage.fields = value
                    storage.fieldsInLine = false
                case .change:
                    return false
                case .slot(let slot):
                    hasFieldMembers = true
                    guard let value = cursor.fieldValue() else { return false }
                    storage.slots?.set(value, at: slot)
                case .unread:
                    hasFieldMembers = true
                    // Read only to check it: the fields are decoded from the line if someone asks.
                    guard cursor.skipValue() else { return false }
                }
                // Where the members that are not fields lie, so that the fields' text is the rest of the line.
                switch member {
                case .kind: storage.membersOutsideFields.0 = Range(uncheckedBounds: (keyStart, cursor.index))
                case .id: storage.membersOutsideFields.1 = Range(uncheckedBounds: (keyStart, cursor.index))
                case .entry: storage.membersOutsideFields.2 = Range(uncheckedBounds: (keyStart, cursor.index))
                default: break
                }
                cursor.skipWhiteSpace()
                if cursor.take(UInt8(ascii: ",")) { continue }
                guard cursor.take(UInt8(ascii: "}")) else { return false }
                break
            }
        }
        guard cursor.isAtEnd() && (storage.fieldsInLine || !hasFieldMembers) else { return false }
        // A key twice is an error the general path reports with its position.
        if !everyKeyIdentified {
            guard NameBytes.areDistinct(keys.lineKeys, count: position, in: bytes) else { return false }
        }
        storage.kind = kind ?? "Command"
        return true
    }
}

extension JSONByteCursor {
    /// A field's value: the common scalars decoded here, anything nested by the general parser.
    mutating func fieldValue() -> JSONValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return null() ? .null : nil
        case UInt8(ascii: "{"), UInt8(ascii: "["): return value()
        default: return number()
        }
    }

    /// A number, exactly as the general parser reads it: an integer when it has no fraction or exponent and fits
    /// 64 bits, else a double. Only the cases converted exactly by one multiplication or division (at most 19
    /// digits, a value below 2^53 and a power of ten up to 22) are handled here.
    mutating func number() -> JSONValue? {
        let negative = take(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else { return nil }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var isInteger = true
        while index < bytes.count, isDigit(bytes[index]) {
            mantissa = mantissa &* 10 &+ UInt64(bytes[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        if take(UInt8(ascii: ".")) {
            isInteger = false
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            while index < bytes.count, isDigit(bytes[index]) {
                mantissa = mantissa &* 10 &+ UInt64(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                exponent -= 1
                index += 1
            }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if take(UInt8(ascii: "+")) {
            } else if take(UInt8(ascii: "-")) {
                exponentNegative = true
            }
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            var written = 0
            while index < bytes.count, isDigit(bytes[index]) {
                written = written * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                if written > 1000 { return nil }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }
        guard digits <= 19 else { return nil }
        if isInteger {
            if negative {
                guard mantissa <= UInt64(Int64.max) + 1 else { return nil }
                return .integer(mantissa == UInt64(Int64.max) + 1 ? .min : -Int64(mantissa))
            }
            guard mantissa <= UInt64(Int64.max) else { return nil }
            return .integer(Int64(mantissa))
        }
        guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(mantissa)
        if exponent < 0 { value /= Self.powerOfTen(-exponent) } else { value *= Self.powerOfTen(exponent) }
        return .double(negative ? -value : value)
    }

    /// 10^`power`, exact for 0...22. A table of literals rather than a global array, which would be checked for
    /// initialisation on every number.
    @inline(__always)
    private static func powerOfTen(_ power: Int) -> Double {
        switch power {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }
}
