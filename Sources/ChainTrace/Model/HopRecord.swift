/// One hop as the recorder keeps it: plain data, so recording it copies no strings and touches no reference
/// counts. Handler and registry are indices into the trace's ``HandlerNameTable``; `parent` is the index of the
/// record of the hop this one ran inside, or -1 at the top; times are clock ticks for recorded traces (see
/// ``MonotonicClock``) and nanoseconds for traces built from ``Hop`` values.
@usableFromInline
struct HopRecord: Sendable, BitwiseCopyable {
    @usableFromInline var handler: Int32
    /// Beside `handler`, so that an instrumented hop opening writes the two together, as it wrote the handler and
    /// its enclosing hop (then kept in `registry`'s place) before parents were kept. (In the other order,
    /// `traceHop` traced read a median 39.4 ns a hop against 38.8, eight interleaved rounds each.)
    @usableFromInline var parent: Int32
    @usableFromInline var decision: Decision
    /// After `decision`, in the padding before the times: the record stays 40 bytes.
    @usableFromInline var registry: Int32
    @usableFromInline var startOffset: UInt64
    @usableFromInline var inclusiveDuration: UInt64
    @usableFromInline var selfDuration: UInt64

    @inlinable
    init(
        handler: Int32,
        registry: Int32,
        decision: Decision,
        parent: Int32,
        startOffset: UInt64,
        inclusiveDuration: UInt64,
        selfDuration: UInt64
    ) {
        self.handler = handler
        self.registry = registry
        self.decision = decision
        self.parent = parent
        self.startOffset = startOffset
        self.inclusiveDuration = inclusiveDuration
        self.selfDuration = selfDuration
    }
}

/// The reasons of a trace's hops: empty until some hop has one, so most traces allocate nothing for them.
@usableFromInline
struct HopReasons: Sendable {
    @usableFromInline var values: [String?] = []

    @inlinable init() {}

    @inlinable
    mutating func set(_ reason: String?, at index: Int) {
        guard let reason else {
            if index < values.count { values[index] = nil }
            return
        }
        while values.count <= index { values.append(nil) }
        values[index] = reason
    }

    @inlinable
    subscript(index: Int) -> String? {
        index < values.count ? values[index] : nil
    }
}

/// The names a trace refers to by index: the chain's, the command type's and the handlers'. Shared by every
/// trace recorded against the same chain version.
@usableFromInline
final class HandlerNameTable: Sendable {
    @usableFromInline let chain: String
    @usableFromInline let commandType: String
    @usableFromInline let names: [String]
    /// Set when the table is one of a series whose names only grow (a log reader's list of a chain's names):
    /// each later table of the lineage starts with every name of each earlier one, in the same places.
    let lineage: NameLineage?

    @usableFromInline
    init(chain: String, commandType: String, names: [String], lineage: NameLineage? = nil) {
        self.chain = chain
        self.commandType = commandType
        self.names = names
        self.lineage = lineage
    }
}
