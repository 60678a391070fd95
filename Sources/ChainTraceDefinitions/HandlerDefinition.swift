public import ChainTrace
import ChainTraceJSON

/// One handler (or registry) of a ``ChainDefinition``: what it accepts, where it forwards, what it costs.
public struct HandlerDefinition: Sendable, Hashable {
    /// Unique within the chain (registry members included).
    public var name: String
    /// A Swift handler type the app registered in ``HandlerTypes``; `nil` for a handler made from its rules.
    public var type: String?
    /// `HandlerRole/observer` for handlers that see every command and let it continue (analytics).
    public var role: HandlerRole
    /// The commands it accepts; `nil` accepts none (it passes everything on).
    public var accepts: Rule?
    /// When it fails instead of deciding, and with what error.
    public var failure: FailureRule?
    /// The handler it forwards to; `nil` ends the path.
    public var next: String?
    /// The self time it should stay under, in nanoseconds; a handler over budget is flagged slow.
    public var budget: Int64?
    /// Real time to spend (busy) on every command, in nanoseconds, so replays measure a realistic cost.
    public var work: Int64?
    /// For a registry: its members, each with a ``weight``; `nil` for a plain handler.
    public var members: [HandlerDefinition]?
    /// For a registry member: its place in the registry's order (highest first).
    public var weight: Int
    /// Settings for a custom ``type``, as written.
    public var options: JSONValue
    /// Where it is in the definition file (`handlers[2]`), for positions in errors.
    public var source: String

    /// Creates a rule handler.
    public init(
        name: String,
        type: String? = nil,
        role: HandlerRole = .responder,
        accepts: Rule? = nil,
        failure: FailureRule? = nil,
        next: String? = nil,
        budget: Int64? = nil,
        work: Int64? = nil,
        members: [HandlerDefinition]? = nil,
        weight: Int = 0,
        options: JSONValue = [:],
        source: String = ""
    ) {
        self.name = name
        self.type = type
        self.role = role
        self.accepts = accepts
        self.failure = failure
        self.next = next
        self.budget = budget
        self.work = work
        self.members = members
        self.weight = weight
        self.options = options
        self.source = source
    }

    /// Whether this is a registry rather than a handler.
    public var isRegistry: Bool { members != nil }
}

/// When a defined handler fails, and the error it reports.
public struct FailureRule: Sendable, Hashable {
    /// The commands it fails on.
    public var when: Rule
    /// The error's text, as the trace records it.
    public var error: String

    /// Creates a failure rule.
    public init(when: Rule, error: String) {
        self.when = when
        self.error = error
    }
}
