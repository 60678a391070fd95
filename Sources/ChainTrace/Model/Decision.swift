/// What one handler did with a command, as a person debugging the chain would say it.
///
/// ```swift
/// if trace.hops.last?.decision == .failed { … }
/// ```
public enum Decision: String, Sendable, Hashable, CaseIterable, Codable, BitwiseCopyable {
    /// The handler took the command; the chain stopped here with a result.
    case accepted
    /// The handler declined ("not mine") and the command went on to the next handler.
    case passed
    /// The handler did its work and let the command go on (an observer such as analytics, or a pipeline stage).
    case continued
    /// The handler threw; the chain stopped here and the trace's outcome carries the error.
    case failed
}
