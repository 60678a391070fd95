/// One command's values for a fixed list of fields (a ``NameIndex``'s names), filled in while the command was
/// decoded, each also kept as a number (NaN when it is absent or not one) for range tests.
///
/// What it buys: one command's storage owns it, in memory allocated once and refilled for every command of a
/// stream, so setting or reading a slot retains, hashes and checks nothing — it runs for every command and every
/// rule test of a replay, where looking fields up by name in the command's object cost most of a rule test
/// (`chaintrace-cli-benchmarks`, "replay" column).
///
/// `@unchecked Sendable`: only the decoder writes it, while nothing else holds the command it belongs to (the
/// command's storage is refilled only when it is uniquely referenced); after that it is only read.
@usableFromInline package final class SlotValues<Value>: @unchecked Sendable {
    /// Which list of fields these are the values of (the identity of the object that made it).
    @usableFromInline package let owner: ObjectIdentifier
    /// How many slots there are.
    @usableFromInline package let count: Int
    /// Each field's value; `nil` when the command does not have it.
    @usableFromInline let values: UnsafeMutablePointer<Value?>
    /// Each field's value as a number, NaN when it is absent or not a number.
    @usableFromInline let numbers: UnsafeMutablePointer<Double>

    /// `count` empty slots for the fields of `owner`.
    @inlinable package init(owner: ObjectIdentifier, count: Int) {
        self.owner = owner
        self.count = count
        values = .allocate(capacity: count)
        values.initialize(repeating: nil, count: count)
        numbers = .allocate(capacity: count)
        numbers.initialize(repeating: .nan, count: count)
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
        numbers.deallocate()
    }

    /// Slots of their own holding the same values.
    @inlinable package func copy() -> SlotValues {
        let copy = SlotValues(owner: owner, count: count)
        copy.values.update(from: values, count: count)
        copy.numbers.update(from: numbers, count: count)
        return copy
    }

    /// The value in `slot`; `nil` when the command does not have that field.
    @inlinable package func value(_ slot: Int) -> Value? {
        values[slot]
    }

    /// The number in `slot`; NaN when the field is absent or not a number.
    @inline(__always)
    @inlinable package func number(_ slot: Int) -> Double {
        numbers[slot]
    }

    /// Puts `value`, which is `number` as a number (NaN when it is none), in `slot`.
    @inlinable package func set(_ value: Value, number: Double, at slot: Int) {
        values[slot] = value
        numbers[slot] = number
    }

    /// Empties every slot, keeping the memory for the next command.
    @inlinable package func clear() {
        for slot in 0..<count {
            values[slot] = nil
            numbers[slot] = .nan
        }
    }
}
