/// The hops of a trace, kept compact while recording.
///
/// On the recording path a hop is a plain record that names its handler by index into a table shared by every
/// trace of the same chain version, so recording copies no strings and touches no reference counts per hop.
/// Readers see ``Hop`` values either way.
@usableFromInline
enum HopStorage: Sendable {
    case hops([Hop])
    case compact(HandlerNameTable, [HopRecord])

    @usableFromInline
    var hops: [Hop] {
        switch self {
        case .hops(let hops):
            return hops
        case .compact(let table, let records):
            return records.enumerated().map { position, record in
                Hop(
                    handler: table.names[Int(record.handler)],
                    position: position,
                    decision: record.decision,
                    reason: record.reason,
                    registry: record.registry < 0 ? nil : table.names[Int(record.registry)],
                    startOffset: record.startOffset,
                    inclusiveDuration: record.inclusiveDuration,
                    selfDuration: record.selfDuration
                )
            }
        }
    }

    @usableFromInline
    var handlerNames: [String] {
        switch self {
        case .hops(let hops): hops.map(\.handler)
        case .compact(let table, let records): records.map { table.names[Int($0.handler)] }
        }
    }
}

/// Handler names of one chain version, shared by all traces recorded against it.
@usableFromInline
final class HandlerNameTable: Sendable {
    @usableFromInline let names: [String]

    @usableFromInline
    init(_ names: [String]) {
        self.names = names
    }
}

/// One hop as the recorder keeps it: handler and registry by index into a ``HandlerNameTable``.
@usableFromInline
struct HopRecord: Sendable {
    @usableFromInline var handler: Int32
    @usableFromInline var registry: Int32
    @usableFromInline var decision: Decision
    @usableFromInline var reason: String?
    @usableFromInline var startOffset: UInt64
    @usableFromInline var inclusiveDuration: UInt64
    @usableFromInline var selfDuration: UInt64

    @inlinable
    init(
        handler: Int32,
        registry: Int32,
        decision: Decision,
        reason: String?,
        startOffset: UInt64,
        inclusiveDuration: UInt64,
        selfDuration: UInt64
    ) {
        self.handler = handler
        self.registry = registry
        self.decision = decision
        self.reason = reason
        self.startOffset = startOffset
        self.inclusiveDuration = inclusiveDuration
        self.selfDuration = selfDuration
    }
}
