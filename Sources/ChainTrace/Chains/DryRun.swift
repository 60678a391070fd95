/// The answer to "who would take this command?" — a walk that asks each handler's dry-run test and performs
/// nothing (Cocoa's `targetForAction`).
public struct DryRun: Sendable, Hashable {
    /// What one handler's dry-run test said.
    public enum Answer: String, Sendable, Hashable {
        /// It would accept: the walk stops here.
        case wouldAccept
        /// It would pass the command on.
        case wouldPass
        /// It observes and would let the command continue.
        case wouldContinue
        /// It has no dry-run test; the walk goes on as if it passed.
        case cannotTell
    }

    /// One handler asked.
    public struct Step: Sendable, Hashable {
        /// The handler's name.
        public let handler: String
        /// The registry it belongs to, if any.
        public let registry: String?
        /// What its test said.
        public let answer: Answer
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
}
