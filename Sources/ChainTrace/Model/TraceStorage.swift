import ChainTraceFastPath
import ChainTraceJSON

/// A trace's contents in one allocation: a header, and the hop records stored right after it.
///
/// Copying a ``Trace`` — into a sink, a ring, a test's array — costs one reference count, and recording a trace
/// allocates once. The recorder fills a storage on the recording thread and hands it on only when it is
/// complete; from then on nothing mutates it, which is what makes ``Trace``'s `@unchecked Sendable` sound.
@usableFromInline
final class TraceStorage: ManagedBuffer<TraceHeader, HopRecord> {
    /// A storage with room for `capacity` hops.
    @usableFromInline
    static func make(capacity: Int, header: TraceHeader) -> TraceStorage {
        make(capacity: capacity) { header }
    }

    /// A storage with room for `capacity` hops, its header made by `makeHeader` inside the buffer's own
    /// initialiser: built by the caller and passed in, it was copied once more on the way — its names retained and
    /// released — on every traced command (`Chain, traced into memory`: 29.6–29.9 → 29.0–29.6 ns a hop,
    /// interleaved).
    @inlinable
    static func make(capacity: Int, makingHeader makeHeader: () -> TraceHeader) -> TraceStorage {
        let room = max(1, capacity)
        let buffer = TraceStorage.create(minimumCapacity: room) { _ in
            var header = makeHeader()
            header.capacity = room
            return header
        }
        return unsafeDowncast(buffer, to: TraceStorage.self)
    }

    /// A storage holding `records`.
    static func make(records: [HopRecord], header: TraceHeader) -> TraceStorage {
        let storage = make(capacity: records.count, header: header)
        records.withUnsafeBufferPointer { storage.fill(with: $0) }
        return storage
    }

    /// How many hops it has room for (as its header says; `capacity` is the allocation's, which may be larger).
    var hopCapacity: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.capacity }
    }

    /// Copies `records` into a new or reset storage with room for them.
    func fill(with records: UnsafeBufferPointer<HopRecord>) {
        withUnsafeMutablePointers { Self.fill($0, $1, with: records) }
    }

    /// ``fill(with:)`` for a caller already inside `withUnsafeMutablePointers`.
    static func fill(
        _ header: UnsafeMutablePointer<TraceHeader>,
        _ elements: UnsafeMutablePointer<HopRecord>,
        with records: UnsafeBufferPointer<HopRecord>
    ) {
        precondition(header.pointee.count == 0 && records.count <= header.pointee.capacity)
        if let base = records.baseAddress { elements.initialize(from: base, count: records.count) }
        header.pointee.count = records.count
    }

    /// Empties a recycled storage for a new walk's trace, keeping its room for hops. Only what a walk does not
    /// set itself is reset, field by field: building a whole new header would copy every name it holds.
    ///
    /// The names come unretained, and are compared by address: they are nearly always the ones the storage
    /// already holds, and are only retained when they are not.
    @inlinable
    func reset(names: UnretainedObject<HandlerNameTable>, entry: Int32, chainVersion: Int) {
        withUnsafeMutablePointerToHeader { header in
            // Hop records hold no references, so dropping them needs no deinitialisation.
            header.pointee.count = 0
            if ObjectIdentifier(header.pointee.names) != ObjectIdentifier(names.object) {
                header.pointee.names = names.object
            }
            header.pointee.entry = entry
            header.pointee.chainVersion = chainVersion
            header.pointee.inTicks = true
            header.pointee.outcomeHop = -1
            if header.pointee.outcomeOverride != nil { header.pointee.outcomeOverride = nil }
            if !header.pointee.reasons.values.isEmpty { header.pointee.reasons = HopReasons() }
            if header.pointee.traceParent != nil { header.pointee.traceParent = nil }
        }
    }

    /// A larger copy, for a walk with more hops than expected.
    @usableFromInline
    func grown() -> TraceStorage {
        withUnsafeMutablePointers { header, elements in
            let copy = TraceStorage.make(capacity: header.pointee.capacity * 2, header: header.pointee)
            copy.withUnsafeMutablePointerToElements { $0.initialize(from: elements, count: header.pointee.count) }
            return copy
        }
    }

    /// Reads the header (in place: copying it would retain every name it holds) and the records in use.
    @inlinable
    func read<T>(_ body: (UnsafePointer<TraceHeader>, UnsafeBufferPointer<HopRecord>) -> T) -> T {
        withUnsafeMutablePointers { header, elements in
            body(UnsafePointer(header), UnsafeBufferPointer(start: elements, count: header.pointee.count))
        }
    }

    /// One thing from the header, read in place.
    @inlinable
    func header<T>(_ field: (UnsafePointer<TraceHeader>) -> T) -> T {
        withUnsafeMutablePointerToHeader { field(UnsafePointer($0)) }
    }

    /// A hop's inclusive and self time in nanoseconds. Positions are converted, not spans, so consecutive hops
    /// still add up exactly in nanoseconds.
    static func durations(of record: HopRecord, inTicks: Bool) -> (inclusive: UInt64, exclusive: UInt64) {
        durations(of: record, scale: inTicks ? MonotonicClock.nanosecondsPerTick : nil)
    }

    /// The same, given ``MonotonicClock/nanosecondsPerTick`` for a trace in ticks, or `nil` for one in nanoseconds.
    @inlinable
    static func durations(of record: HopRecord, scale: UInt64?) -> (inclusive: UInt64, exclusive: UInt64) {
        // A trace built from its parts (a log line, a test) gives back exactly what it was given.
        guard let scale else { return (record.inclusiveDuration, record.selfDuration) }
        let start = MonotonicClock.nanoseconds(record.startOffset, scale: scale)
        let end = MonotonicClock.nanoseconds(record.startOffset &+ record.inclusiveDuration, scale: scale)
        let inclusive = end &- start
        let exclusive =
            record.selfDuration == record.inclusiveDuration
            ? inclusive : min(inclusive, MonotonicClock.nanoseconds(record.selfDuration, scale: scale))
        return (inclusive, exclusive)
    }

    /// Nanoseconds for a time stored in this trace's unit.
    func nanoseconds(_ value: UInt64, inTicks: Bool) -> UInt64 {
        inTicks ? MonotonicClock.nanoseconds(value) : value
    }

    var outcome: Outcome {
        read { header, records in
            let outcomeHop = Int(header.pointee.outcomeHop)
            guard outcomeHop >= 0 else { return .fellOffTheEnd }
            let record = records[outcomeHop]
            let handler = header.pointee.names.names[Int(record.handler)]
            if record.decision == .failed {
                return .failed(at: handler, error: header.pointee.reasons[outcomeHop] ?? "")
            }
            return .accepted(by: handler)
        }
    }

    var path: [String] {
        read { header, records in
            let names = header.pointee.names.names
            return records.map { names[Int($0.handler)] }
        }
    }

    var hops: [Hop] {
        read { header, records in
            let (names, reasons, inTicks) = (header.pointee.names.names, header.pointee.reasons, header.pointee.inTicks)
            return records.enumerated().map { position, record in
                let start = nanoseconds(record.startOffset, inTicks: inTicks)
                let (inclusive, exclusive) = Self.durations(of: record, inTicks: inTicks)
                return Hop(
                    handler: names[Int(record.handler)],
                    position: position,
                    decision: record.decision,
                    reason: reasons[position],
                    registry: record.registry < 0 ? nil : names[Int(record.registry)],
                    parent: record.parent < 0 ? nil : Int(record.parent),
                    startOffset: start,
                    inclusiveDuration: inclusive,
                    selfDuration: exclusive
                )
            }
        }
    }
}

/// Everything about a trace but its hops.
@usableFromInline
struct TraceHeader {
    @usableFromInline var id: UInt64
    @usableFromInline var names: HandlerNameTable
    /// The command kind when it is not the command type's name.
    @usableFromInline var kind: String?
    @usableFromInline var commandID: String?
    @usableFromInline var payload: JSONValue?
    /// The payload as text, when it is kept that way (then `payload` is `nil`).
    @usableFromInline var encodedPayload: (any EncodedPayload)? = nil
    @usableFromInline var entry: Int32
    @usableFromInline var chainVersion: Int
    /// Clock ticks when `inTicks`, else wall-clock nanoseconds since 1970 (as a bit pattern).
    @usableFromInline var start: UInt64
    /// Clock ticks when `inTicks`, else nanoseconds.
    @usableFromInline var duration: UInt64 = 0
    @usableFromInline var reasons = HopReasons()
    /// The hop that decided the outcome (accepted or failed), or -1 when the command fell off the end.
    @usableFromInline var outcomeHop: Int32 = -1
    /// An outcome no hop accounts for, given to a hand-built trace (see `Trace.outcomeOverride`). Here rather
    /// than beside the storage in `Trace`: there it made a trace two words with an enum of strings, and every
    /// copy of one (into a sink's ring, out of a recorder) copied the enum through an outlined value witness,
    /// ~150 instructions a traced command (callgrind, `chaintrace-benchmarks` "instrumented chain" row).
    @usableFromInline var outcomeOverride: Outcome? = nil
    /// The span the command ran under in the app's distributed tracing, when the recorder was told it.
    @usableFromInline var traceParent: TraceParent? = nil
    @usableFromInline var inTicks: Bool
    /// Hop records in use, and room for.
    @usableFromInline var count = 0
    @usableFromInline var capacity = 0

    @inlinable
    init(
        id: UInt64,
        names: HandlerNameTable,
        kind: String? = nil,
        commandID: String? = nil,
        payload: JSONValue? = nil,
        entry: Int32,
        chainVersion: Int,
        start: UInt64,
        inTicks: Bool
    ) {
        self.id = id
        self.names = names
        self.kind = kind
        self.commandID = commandID
        self.payload = payload
        self.entry = entry
        self.chainVersion = chainVersion
        self.start = start
        self.inTicks = inTicks
    }
}

extension Trace {
    /// Notes the span `read` gives, unless the trace names one already (``Recorder/notingTraceParent(_:)``); only
    /// while the trace is being delivered, before any sink holds it (a trace is immutable from then on). Out of
    /// line: only a recorder that notes spans calls it.
    @usableFromInline @inline(never)
    func noteTraceParent(_ read: () -> TraceParent?) {
        guard traceParent == nil, let parent = read() else { return }
        storage.withUnsafeMutablePointerToHeader { $0.pointee.traceParent = parent }
    }
}
