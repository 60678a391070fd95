/// A command's contents — kind, id, entry, fields, a decoder's slots and the line it was read from — in one
/// object a stream reader refills for every line when nothing else holds it.
///
/// What it buys: passing a command along a chain copies one reference, and a stream of a million commands is
/// decoded without allocating one per line (the reader refills the previous command's storage when the chain is
/// done with it); the line is kept so that the id and the fields are only made if someone asks, and most replayed
/// commands are never asked (`chaintrace-cli-benchmarks`, "replay" column). The package model
/// (ChainTraceDefinitions' `JSONCommand`) is a value over it.
///
/// `Fields` is the command's data (a `JSONValue` object). Never changed while anyone else can see it: a change to
/// a command makes a new storage, and a reader refills one only when it is uniquely referenced. That is what makes
/// `@unchecked Sendable` sound.
@usableFromInline package final class CommandStorage<Fields>: @unchecked Sendable {
    /// What a decoder refills for every line, read by the rules on every test: in an ``UncheckedCell``, since
    /// only the thread that holds the command alone writes it; the run-time exclusivity check on these fields
    /// cost a replay of a flat million-line stream about half its speed.
    @usableFromInline let contents: UncheckedCell<Contents>
    /// The values of the fields a chain's rules read, when a decoder filled them.
    @usableFromInline package let slots: SlotValues<Fields>?
    /// The fields parsed from the kept line, once asked for (``fields(parsingLineWith:)``), with the line's
    /// generation they were parsed from. Locked: a command is `Sendable`, and a fan-out's tasks may read one
    /// command's fields at once.
    @usableFromInline let parsedFields = LockedValue<(generation: Int, fields: Fields)?>(nil)

    @usableFromInline
    struct Contents {
        @usableFromInline var kind: String
        @usableFromInline var id: String?
        @usableFromInline var entry: String?
        @usableFromInline var fields: Fields
        /// When `true`, the fields are the members of the kept line (see ``setLine(_:)``) other than kind, id
        /// and entry.
        @usableFromInline var fieldsInLine = false
        /// Where in the kept line the id's text is, when the decoder left it there (an id without escapes): it
        /// is only made into a `String` if someone asks.
        @usableFromInline var idInLine: Range<Int>?
        /// Where in the kept line the members that are not fields (kind, id and entry, in that order) are, key
        /// to end of value; an empty range for one the line does not have. The fields' text is then the rest
        /// of the line, with no second walk over it.
        @usableFromInline var membersOutsideFields: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
        /// The 1-based column (in bytes) where the entry's value starts in its line, for an error about it; 0 when
        /// not known (no entry, or a command not read from a line).
        @usableFromInline var entryColumn = 0
        /// The line's bytes, in memory the storage owns and reuses when it is refilled: copying a line into it
        /// is one `memcpy`, where an array would first be emptied and then grown element by element.
        @usableFromInline var lineBytes = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
        @usableFromInline var lineCount = 0
        /// Counts the lines kept, so that fields parsed from an earlier one are known stale without a lock taken
        /// for every line (refilling, the storage is held alone; reading, nobody refills it).
        @usableFromInline var lineGeneration = 0

        @usableFromInline init(kind: String, id: String?, entry: String?, fields: Fields) {
            self.kind = kind
            self.id = id
            self.entry = entry
            self.fields = fields
        }
    }

    /// What kind of command it is.
    @inlinable package var kind: String {
        _read { yield contents.value.kind }
        _modify { yield &contents.value.kind }
    }
    /// The id, when it was made into a `String` (else see ``idInLine``).
    @inlinable package var id: String? {
        _read { yield contents.value.id }
        _modify { yield &contents.value.id }
    }
    /// The handler to send it to.
    @inlinable package var entry: String? {
        _read { yield contents.value.entry }
        _modify { yield &contents.value.entry }
    }
    /// The fields, unless ``fieldsInLine``.
    @inlinable package var fields: Fields {
        _read { yield contents.value.fields }
        _modify { yield &contents.value.fields }
    }
    /// Whether the fields are the kept line's members other than kind, id and entry.
    @inlinable package var fieldsInLine: Bool {
        _read { yield contents.value.fieldsInLine }
        _modify { yield &contents.value.fieldsInLine }
    }
    /// Where in the kept line the id's text is, when it was left there.
    @inlinable package var idInLine: Range<Int>? {
        _read { yield contents.value.idInLine }
        _modify { yield &contents.value.idInLine }
    }

    /// Where in the kept line the kind, id and entry members are (empty ranges for those it does not have).
    @inlinable package var membersOutsideFields: (Range<Int>, Range<Int>, Range<Int>) {
        _read { yield contents.value.membersOutsideFields }
        _modify { yield &contents.value.membersOutsideFields }
    }

    /// Where the entry's value starts in its line: a 1-based column in bytes, 0 when not known.
    @inlinable package var entryColumn: Int {
        _read { yield contents.value.entryColumn }
        _modify { yield &contents.value.entryColumn }
    }

    /// A command of these contents, with empty `slots` when given.
    @inlinable package init(kind: String, id: String?, entry: String?, fields: Fields, slots: SlotValues<Fields>?) {
        contents = UncheckedCell.make(Contents(kind: kind, id: id, entry: entry, fields: fields))
        self.slots = slots
    }

    deinit {
        contents.value.lineBytes.deallocate()
    }

    /// The fields the kept line holds (see ``fieldsInLine``), parsed by `parse` the first time they are asked for
    /// after the line was kept, and then kept until it is refilled.
    ///
    /// What it buys: a rule on a field the decoder did not put in a slot — one a stream's `register` or `insert`
    /// change brought, say — read the whole line again for every such rule tested. `chaintrace replay` of the
    /// late-responders sample's chain with ten screens registered by the stream, each with rules on fields of its
    /// own, and 200 000 commands: 0.98–1.03 s before, 0.43–0.56 s with it (three runs each).
    /// `StreamFieldsParsedOnceTests` compares it with fresh parses, the storage refilled between them.
    @usableFromInline package func fields(parsingLineWith parse: (UnsafeBufferPointer<UInt8>) -> Fields) -> Fields {
        let generation = contents.value.lineGeneration
        return parsedFields.withLock { parsed in
            if let parsed, parsed.generation == generation { return parsed.fields }
            let fields = withLine(parse)
            parsed = (generation, fields)
            return fields
        }
    }

    /// Keeps a copy of `bytes` as the line.
    @inlinable package func setLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        contents.value.lineGeneration &+= 1
        if bytes.count > contents.value.lineBytes.count {
            contents.value.lineBytes.deallocate()
            contents.value.lineBytes = .allocate(capacity: max(bytes.count, 2 * contents.value.lineBytes.count, 64))
        }
        if let source = bytes.baseAddress {
            contents.value.lineBytes.baseAddress!.update(from: source, count: bytes.count)
        }
        contents.value.lineCount = bytes.count
    }

    /// The text of a part of the line.
    @inlinable package func lineText(_ range: Range<Int>) -> String {
        withLine { Self.text(range, of: $0) }
    }

    /// The text of `range` in `bytes`, a line the decoder checked.
    @inlinable package static func text(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Calls `body` with the line's bytes.
    @inlinable package func withLine<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        body(UnsafeBufferPointer(rebasing: contents.value.lineBytes[..<contents.value.lineCount]))
    }

    /// A storage of its own with the same contents, but `kind`, `id` or `entry` replaced when given.
    @inlinable package func with(kind: String? = nil, id: String?? = nil, entry: String?? = nil) -> CommandStorage {
        let copy = CommandStorage(
            kind: kind ?? self.kind,
            id: id ?? self.id,
            entry: entry ?? self.entry,
            fields: fields,
            slots: slots?.copy()
        )
        copy.idInLine = id == nil ? idInLine : nil
        copy.fieldsInLine = fieldsInLine
        copy.membersOutsideFields = membersOutsideFields
        // Another entry is not where this one was in the line.
        copy.entryColumn = entry == nil ? entryColumn : 0
        withLine(copy.setLine)
        return copy
    }
}
