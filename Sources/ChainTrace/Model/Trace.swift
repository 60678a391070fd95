/// Everything recorded about one command's trip through a chain.
///
/// A trace is a value: copy it, compare it, keep it. Build one by hand in tests, get them from a
/// ``InMemoryTraceSink``, or read them back from a trace log.
///
/// ```swift
/// let trace = sink.traces.last!
/// print(trace.path)        // ["Penny", "Nickel", "Dime"]
/// print(trace.outcome)     // accepted by Dime
/// ```
public struct Trace: Sendable, Hashable, Identifiable {
    /// Unique among the traces of one process; increasing on each thread.
    public var id: UInt64
    /// What kind of command this was: ``TracedCommand/commandKind`` when the command provides one,
    /// otherwise the command's type name.
    public var commandKind: String
    /// The command's own identifier, when it has one (``TracedCommand/commandID``); used to match the same
    /// command across recorded runs.
    public var commandID: String?
    /// The command encoded as JSON, when it is `Encodable` and the recorder captures payloads.
    public var payload: JSONValue?
    /// The handler the command entered the chain at.
    public var entry: String
    /// The chain's name.
    public var chain: String
    /// The chain's version when the command was sent; every change to the chain increases it.
    public var chainVersion: Int
    /// Wall-clock start of the trace, in nanoseconds since 1970-01-01 UTC.
    public var startTime: Int64
    /// How the trip ended.
    public var outcome: Outcome
    /// Nanoseconds from the start of the first hop to the end of the last.
    public var duration: UInt64
    @usableFromInline var storage: HopStorage

    /// Creates a trace; used by trace log readers and by tests that build expected traces.
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
        duration: UInt64
    ) {
        self.id = id
        self.commandKind = commandKind
        self.commandID = commandID
        self.payload = payload
        self.entry = entry
        self.chain = chain
        self.chainVersion = chainVersion
        self.startTime = startTime
        self.storage = .hops(hops)
        self.outcome = outcome
        self.duration = duration
    }

    @usableFromInline
    init(
        id: UInt64,
        commandKind: String,
        commandID: String?,
        payload: JSONValue?,
        entry: String,
        chain: String,
        chainVersion: Int,
        startTime: Int64,
        storage: HopStorage,
        outcome: Outcome,
        duration: UInt64
    ) {
        self.id = id
        self.commandKind = commandKind
        self.commandID = commandID
        self.payload = payload
        self.entry = entry
        self.chain = chain
        self.chainVersion = chainVersion
        self.startTime = startTime
        self.storage = storage
        self.outcome = outcome
        self.duration = duration
    }

    /// The hops in the order the handlers got the command.
    public var hops: [Hop] {
        get { storage.hops }
        set { storage = .hops(newValue) }
    }

    /// The names of the handlers the command visited, in order.
    public var path: [String] { storage.handlerNames }

    /// The first hop of the named handler, if the command reached it.
    public func hop(_ handler: String) -> Hop? {
        hops.first { $0.handler == handler }
    }

    /// Whether the command reached the named handler.
    public func visited(_ handler: String) -> Bool {
        storage.handlerNames.contains(handler)
    }

    public static func == (lhs: Trace, rhs: Trace) -> Bool {
        lhs.id == rhs.id && lhs.commandKind == rhs.commandKind && lhs.commandID == rhs.commandID
            && lhs.payload == rhs.payload && lhs.entry == rhs.entry && lhs.chain == rhs.chain
            && lhs.chainVersion == rhs.chainVersion && lhs.startTime == rhs.startTime && lhs.outcome == rhs.outcome
            && lhs.duration == rhs.duration && lhs.hops == rhs.hops
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(commandKind)
        hasher.combine(chain)
        hasher.combine(hops)
    }
}
