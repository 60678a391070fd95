import ChainTraceJSON

/// Everything recorded about one command's trip through a chain.
///
/// A trace is an immutable value: copy it, compare it, keep it. Get them from an ``InMemoryTraceSink``, read them
/// back from a trace log, or build one by hand in tests.
///
/// ```swift
/// let trace = sink.traces.last!
/// print(trace.path)        // ["Penny", "Nickel", "Dime"]
/// print(trace.outcome)     // accepted by Dime
/// ```
public struct Trace: Hashable, Identifiable {
    @usableFromInline var storage: TraceStorage

    @usableFromInline
    init(storage: TraceStorage) {
        self.storage = storage
    }

    /// Creates a trace from its parts; used by trace log readers and by tests that build expected traces.
    ///
    /// Hop positions are taken from the order of `hops`.
    public init(
        id: UInt64,
        commandKind: String,
        commandID: String? = nil,
        payload: JSONValue? = nil,
        entry: String,
        chain: String,
        chainVersion: Int = 0,
        startTime: Int64 = 0,
        hops: [Hop],
        outcome: Outcome,
        duration: UInt64,
        traceParent: TraceParent? = nil
    ) {
        var names: [String] = []
        var indexByName: [String: Int32] = [:]
        func index(of name: String) -> Int32 {
            if let index = indexByName[name] { return index }
            names.append(name)
            indexByName[name] = Int32(names.count - 1)
            return Int32(names.count - 1)
        }
        let entryIndex = index(of: entry)
        var reasons = HopReasons()
        var records: [HopRecord] = []
        for (position, hop) in hops.enumerated() {
            records.append(
                HopRecord(
                    handler: index(of: hop.handler),
                    registry: hop.registry.map(index(of:)) ?? -1,
                    decision: hop.decision,
                    // Only an earlier hop can be one this one ran inside.
                    parent: hop.parent.flatMap { (0..<position).contains($0) ? Int32($0) : nil } ?? -1,
                    startOffset: hop.startOffset,
                    inclusiveDuration: hop.inclusiveDuration,
                    selfDuration: hop.selfDuration
                )
            )
            reasons.set(hop.reason, at: position)
        }
        // The outcome is stored as the hop that decided it; an outcome no hop matches gets a hop of its own
        // only in `outcomeOverride`.
        var outcomeHop: Int32 = -1
        var outcomeMatches = outcome == .fellOffTheEnd
        if let last = hops.indices.last {
            let candidate: Outcome? =
                switch hops[last].decision {
                case .accepted: .accepted(by: hops[last].handler)
                case .failed: .failed(at: hops[last].handler, error: hops[last].reason ?? "")
                default: nil
                }
            if candidate == outcome {
                outcomeHop = Int32(last)
                outcomeMatches = true
            } else if let match = hops.firstIndex(where: { hop in
                (hop.decision == .failed && outcome == .failed(at: hop.handler, error: hop.reason ?? ""))
                    || (hop.decision == .accepted && outcome == .accepted(by: hop.handler))
            }) {
                outcomeHop = Int32(match)
                outcomeMatches = true
            }
        }
        var header = TraceHeader(
            id: id,
            names: HandlerNameTable(chain: chain, commandType: commandKind, names: names),
            commandID: commandID,
            payload: payload,
            entry: entryIndex,
            chainVersion: chainVersion,
            start: UInt64(bitPattern: startTime),
            inTicks: false
        )
        header.duration = duration
        header.reasons = reasons
        header.outcomeHop = outcomeHop
        header.outcomeOverride = outcomeMatches ? nil : outcome
        header.traceParent = traceParent
        storage = .make(records: records, header: header)
    }

    /// An outcome given to ``init(id:commandKind:commandID:payload:entry:chain:chainVersion:startTime:hops:outcome:duration:traceParent:)``
    /// that no hop accounts for (kept so hand-built traces read back exactly as given).
    var outcomeOverride: Outcome? { storage.header { $0.pointee.outcomeOverride } }

    /// Unique among the traces of one process; increasing on each thread.
    public var id: UInt64 { storage.header { $0.pointee.id } }
    /// What kind of command this was: ``TracedCommand/commandKind`` when the command provides one,
    /// otherwise the command's type name.
    public var commandKind: String {
        storage.header { $0.pointee.kind ?? $0.pointee.names.commandType }
    }
    /// The command's own identifier, when it has one (``TracedCommand/commandID``); used to match the same
    /// command across recorded runs.
    public var commandID: String? {
        if let id = storage.header({ $0.pointee.commandID }) { return id }
        // A replay's logged command may keep its id in its payload, as text, made into a string only when asked for
        // here (read out first, as ``payload`` reads it: a payload's own code does not run inside the access).
        return storage.header { $0.pointee.encodedPayload }?.withKeptCommandID { String(decoding: $0, as: UTF8.self) }
    }
    /// The command encoded as JSON, when it is `Encodable` and the recorder captures payloads.
    public var payload: JSONValue? {
        // The encoded payload is read out first: its `value` may encode the command, which must not run inside
        // the storage's access.
        let (payload, encoded) = storage.header { ($0.pointee.payload, $0.pointee.encodedPayload) }
        return payload ?? encoded?.value
    }
    /// The handler the command entered the chain at.
    public var entry: String {
        storage.header { $0.pointee.names.names[Int($0.pointee.entry)] }
    }
    /// The chain's name.
    public var chain: String { storage.header { $0.pointee.names.chain } }
    /// The chain's version when the command was sent; every change to the chain increases it.
    public var chainVersion: Int { storage.header { $0.pointee.chainVersion } }
    /// Wall-clock start of the trace, in nanoseconds since 1970-01-01 UTC.
    public var startTime: Int64 {
        let (start, inTicks) = storage.header { ($0.pointee.start, $0.pointee.inTicks) }
        return inTicks ? MonotonicClock.wallTime(start) : Int64(bitPattern: start)
    }
    /// Nanoseconds from the start of the first hop to the end of the last.
    public var duration: UInt64 {
        let (duration, inTicks) = storage.header { ($0.pointee.duration, $0.pointee.inTicks) }
        return storage.nanoseconds(duration, inTicks: inTicks)
    }
    /// The time from the start of the first hop to the end of the last (``duration``).
    public var elapsed: Duration { .nanoseconds(Int64(saturating: duration)) }
    /// ``duration``, or longer when a hop ends after it (a trace read from a log whose times do not add up): the time
    /// an export's span of the whole command covers, so that every hop's span lies inside it.
    package func duration(covering hops: [Hop]) -> UInt64 {
        hops.reduce(duration) { Swift.max($0, $1.startOffset.saturatingAdd($1.inclusiveDuration)) }
    }
    /// How the trip ended.
    public var outcome: Outcome { outcomeOverride ?? storage.outcome }
    /// The span the command ran under in the app's distributed tracing — a framework's request span — when the
    /// recorder was told it (the Hummingbird and Vapor integrations tell it when the app's tracer propagates W3C
    /// Trace Context; for a chain of your own, ``Recorder/notingTraceParent(_:)``); `chaintrace export --to otlp`
    /// puts the command's span under it.
    public var traceParent: TraceParent? { storage.header { $0.pointee.traceParent } }
    /// The hops in the order the handlers got the command.
    public var hops: [Hop] { storage.hops }
    /// The names of the handlers the command visited, in order.
    public var path: [String] { storage.path }

    /// The first hop of the named handler, if the command reached it.
    public func hop(_ handler: String) -> Hop? {
        hops.first { $0.handler == handler }
    }

    /// Whether the command reached the named handler.
    public func visited(_ handler: String) -> Bool {
        path.contains(handler)
    }

    public static func == (lhs: Trace, rhs: Trace) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.id == rhs.id && lhs.commandKind == rhs.commandKind && lhs.commandID == rhs.commandID
            && lhs.payload == rhs.payload && lhs.entry == rhs.entry && lhs.chain == rhs.chain
            && lhs.chainVersion == rhs.chainVersion && lhs.startTime == rhs.startTime && lhs.outcome == rhs.outcome
            && lhs.duration == rhs.duration && lhs.traceParent == rhs.traceParent && lhs.hops == rhs.hops
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(chain)
        hasher.combine(path)
    }
}

/// `@unchecked` because ``TraceStorage`` is a `ManagedBuffer`, which cannot be `Sendable`; it is sound because a
/// trace's storage is complete before the trace exists and never changes afterwards.
extension Trace: @unchecked Sendable {}

extension Trace: CustomStringConvertible {
    /// `#12 Coin via coins v3: Penny → Nickel → Dime, accepted by Dime in 812 ns`.
    public var description: String {
        "#\(id) \(commandKind) via \(chain) v\(chainVersion): \(path.joined(separator: " → ")), \(outcome) in \(duration) ns"
    }
}
