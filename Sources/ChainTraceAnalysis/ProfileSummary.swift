import ChainTrace

/// A profile's numbers and the handlers a slow-handler rule flags in it, as plain values: what
/// `chaintrace stats --format json` and `replay --format json` print, and what a program reading them decodes.
///
/// Times are nanoseconds, clamped to the largest signed 64-bit number.
public struct ProfileSummary: Codable, Sendable, Equatable {
    /// How the profiled commands ended.
    public struct Outcomes: Codable, Sendable, Equatable {
        /// Commands a handler took.
        public var accepted: Int64
        /// Commands no handler took.
        public var fellOffTheEnd: Int64
        /// Commands a handler failed.
        public var failed: Int64
    }

    /// One handler's decisions, self times and slowness.
    public struct Handler: Codable, Sendable, Equatable {
        /// The handler's name.
        public var handler: String
        /// The registry it is a member of, if any.
        public var registry: String?
        /// How many hops reached it.
        public var seen: Int64
        /// How many of those it accepted, passed on, let continue and failed.
        public var accepted: Int64, passed: Int64, continued: Int64, failed: Int64
        /// Its self time's 50th, 95th and 99th percentiles, and its total self time.
        public var selfP50Ns: Int64, selfP95Ns: Int64, selfP99Ns: Int64, selfTotalNs: Int64
        /// Its budget, when the definition gives one.
        public var budgetNs: Int64?
        /// Whether the rule flags it, and why (absent when it does not).
        public var slow: Bool
        public var slowBecause: [String]?
    }

    /// How many commands the profile counts.
    public var commands: Int64
    /// How they ended.
    public var outcomes: Outcomes
    /// Every handler, in the profile's order.
    public var handlers: [Handler]
    /// The rule, as written.
    public var slowRule: String

    /// The summary of `profile` with the handlers `rule` flags.
    public init(profile: ChainProfile, rule: SlowHandlerRule) {
        let flags = Dictionary(
            rule.flags(in: profile).map { ($0.handler, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        commands = Int64(clamping: profile.commands)
        outcomes = Outcomes(
            accepted: Int64(clamping: profile.accepted),
            fellOffTheEnd: Int64(clamping: profile.fellOffTheEnd),
            failed: Int64(clamping: profile.failed)
        )
        handlers = profile.handlers.map { handler in
            let flag = flags[handler.handler]
            return Handler(
                handler: handler.handler,
                registry: handler.registry,
                seen: Int64(clamping: handler.seen),
                accepted: Int64(clamping: handler.accepted),
                passed: Int64(clamping: handler.passed),
                continued: Int64(clamping: handler.continued),
                failed: Int64(clamping: handler.failed),
                selfP50Ns: Int64(clamping: handler.selfTime(atPercentile: 50)),
                selfP95Ns: Int64(clamping: handler.selfTime(atPercentile: 95)),
                selfP99Ns: Int64(clamping: handler.selfTime(atPercentile: 99)),
                selfTotalNs: Int64(clamping: handler.totalSelfNanoseconds),
                budgetNs: handler.budgetNanoseconds,
                slow: flag != nil,
                slowBecause: flag?.reasons
            )
        }
        slowRule = rule.description
    }
}
