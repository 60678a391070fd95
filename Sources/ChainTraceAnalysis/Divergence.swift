public import ChainTrace

/// One command that went differently in two runs.
public struct Divergence: Sendable, Hashable, Encodable {
    /// How it differs.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// Another handler accepted it.
        case differentHandler
        /// The same outcome, by a different path.
        case differentPath
        /// It was handled (or failed) before and now falls off the end.
        case newlyUnhandled
        /// It fails now and did not before (or failed elsewhere).
        case newlyFailing
        /// It fell off the end before and is handled now.
        case newlyHandled
        /// It failed before and does not now.
        case noLongerFailing
        /// It is in the first run only.
        case missing
        /// It is in the second run only.
        case unexpected
    }

    /// How it differs.
    public var kind: Kind
    /// The command's id, or `#n` (its place in the run, see ``TraceMatcher``) when it has none.
    public var command: String
    /// The command's kind.
    public var commandKind: String
    /// Its path and outcome in the first (recorded) run; `nil` for ``Kind/unexpected``.
    public var expected: RunSummary?
    /// Its path and outcome in the second run; `nil` for ``Kind/missing``.
    public var actual: RunSummary?

    /// A command's trip in one run, as compared.
    public struct RunSummary: Sendable, Hashable, CustomStringConvertible, Encodable {
        /// The handlers in order.
        public var path: [String]
        /// How it ended.
        public var outcome: Outcome
        /// The line of the log or stream it came from, when known.
        public var line: Int?
        /// The file that line is in, for a log of several files (`nil` for one file, whose name the caller knows).
        public var file: String?
        /// What of the path and outcome does not depend on the order of hops that ran at once, when some did.
        let orderFree: OrderFreePath?

        private enum CodingKeys: String, CodingKey {
            case path, outcome, line, file
        }

        /// Summarises a trace.
        public init(_ trace: Trace, line: Int?, file: String? = nil) {
            path = trace.path
            outcome = trace.outcome
            self.line = line
            self.file = file
            orderFree = OrderFreePath(trace)
        }

        /// Whether `other` went the same way: the same handlers in the same order — or, when hops ran at once in
        /// both (a stage that fanned out), the same handlers inside the same handlers, those that ran at once in
        /// any order.
        func hasSamePath(as other: RunSummary) -> Bool {
            if let orderFree, let theirs = other.orderFree { return orderFree.digest == theirs.digest }
            return path == other.path
        }

        /// Whether `other` ended the same way: the same outcome — or, when hops ran at once in both, outcomes that
        /// differ only in which of the hops that ran at once (and accepted, or failed) the recorder named.
        func hasSameOutcome(as other: RunSummary) -> Bool {
            if outcome == other.outcome { return true }
            guard let orderFree, let theirs = other.orderFree else { return false }
            return orderFree.interchangeableOutcomes.contains(other.outcome)
                && theirs.interchangeableOutcomes.contains(outcome)
        }

        /// The hops that ran at once with a sibling, group by group: `[N3, N6]`, `[N4, N5]`; empty when none did.
        /// Two runs whose paths read the same differ, when they do, in these.
        package var groupsAtOnce: [[String]] { orderFree?.groupsAtOnce ?? [] }

        /// `line 12`, or `line 12 of traces-0002.jsonl` for a log of several files; `nil` when the line is unknown.
        public var place: String? {
            guard let line else { return nil }
            return file.map { "line \(line) of \($0)" } ?? "line \(line)"
        }

        /// `A → B → C (accepted by C)`.
        public var description: String {
            let route = path.isEmpty ? "no handler" : path.map(HandlerNameText.of).joined(separator: " → ")
            return "\(route) (\(outcome))"
        }
    }

    /// Compares two trips of the same command; `nil` when they agree on path and outcome.
    ///
    /// Where hops ran at once in both runs (a stage that fanned out with `async let` or a task group), what the
    /// scheduler decides is not a divergence: the order of those hops, and which of them that accepted (or failed)
    /// the recorder named as the outcome. Their handlers, and what ran inside what, still are compared.
    public static func between(
        expected: RunSummary,
        actual: RunSummary,
        command: String,
        commandKind: String
    ) -> Divergence? {
        let kind: Kind
        let actualOutcome = expected.hasSameOutcome(as: actual) ? expected.outcome : actual.outcome
        switch (expected.outcome, actualOutcome) {
        case (.accepted(let before), .accepted(let after)) where before != after: kind = .differentHandler
        case (.accepted, .fellOffTheEnd), (.failed, .fellOffTheEnd): kind = .newlyUnhandled
        case (.failed(let before, let beforeError), .failed(let after, let afterError)):
            guard before == after && beforeError == afterError else {
                kind = .newlyFailing
                break
            }
            guard expected.hasSamePath(as: actual) else {
                kind = .differentPath
                break
            }
            return nil
        case (_, .failed): kind = .newlyFailing
        case (.fellOffTheEnd, .accepted): kind = .newlyHandled
        case (.failed, _): kind = .noLongerFailing
        default:
            guard expected.hasSamePath(as: actual) else {
                kind = .differentPath
                break
            }
            return nil
        }
        return Divergence(kind: kind, command: command, commandKind: commandKind, expected: expected, actual: actual)
    }
}
