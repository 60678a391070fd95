/// The answer to "who would take this command?" — a walk that asks each handler's dry-run test and performs
/// nothing (Cocoa's `targetForAction`).
public struct DryRun: Sendable, Hashable, Encodable {
    /// What one handler's dry-run test said.
    public enum Answer: String, Sendable, Hashable, Codable {
        /// It would accept: the walk stops here.
        case wouldAccept
        /// It would pass the command on.
        case wouldPass
        /// It observes and would let the command continue.
        case wouldContinue
        /// It would fail: the walk stops here, and ``Step/error`` holds the error text.
        case wouldFail
        /// It has no dry-run test; the walk goes on as if it passed.
        case cannotTell
    }

    /// One handler asked.
    public struct Step: Sendable, Hashable, Encodable {
        /// The handler's name.
        public let handler: String
        /// The registry it belongs to, if any.
        public let registry: String?
        /// What its test said.
        public let answer: Answer
        /// The error text, when it would fail.
        public let error: String?

        init(handler: String, registry: String?, answer: Answer, error: String? = nil) {
            self.handler = handler
            self.registry = registry
            self.answer = answer
            self.error = error
        }
    }

    /// Where the command would enter.
    public let entry: String
    /// Every handler asked, in order.
    public let steps: [Step]

    /// The handler that would accept, or `nil` if the command would fall off the end (or the handlers that
    /// cannot tell hide the answer: see ``undecided``).
    public var handler: String? {
        steps.last.flatMap { $0.answer == .wouldAccept ? $0.handler : nil }
    }

    /// The names of the handlers the command would visit.
    public var path: [String] { steps.map(\.handler) }

    /// The handlers on the path that have no dry-run test.
    public var undecided: [String] { steps.filter { $0.answer == .cannotTell }.map(\.handler) }

    /// What a real send would end in — the same ``Outcome`` its trace records — or `nil` when a handler on the path
    /// cannot tell without running (see ``undecided``).
    public var predictedOutcome: Outcome? {
        guard undecided.isEmpty else { return nil }
        guard let last = steps.last else { return .fellOffTheEnd }
        switch last.answer {
        case .wouldAccept: return .accepted(by: last.handler)
        case .wouldFail: return .failed(at: last.handler, error: last.error ?? "")
        case .wouldPass, .wouldContinue, .cannotTell: return .fellOffTheEnd
        }
    }

    private enum CodingKeys: String, CodingKey {
        case entry, path, steps, handler, outcome, undecided
    }

    /// The entry, the path, every step (handler, registry when there is one, answer, error when it would fail),
    /// the handler that would take it and the predicted outcome (`null` when there is none), and the undecided
    /// handlers — what `chaintrace which --format json` prints.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entry, forKey: .entry)
        try container.encode(path, forKey: .path)
        try container.encode(steps, forKey: .steps)
        try container.encode(handler, forKey: .handler)
        try container.encode(predictedOutcome, forKey: .outcome)
        try container.encode(undecided, forKey: .undecided)
    }
}
