public import ChainTrace

// Each assertion comes in two forms, as in swift-snapshot-testing: `verify…` returns the failure message (or
// `nil`), and `expect…` reports it at the caller's location in Swift Testing or XCTest.

/// The message for a trace not accepted by `handler`, or `nil` when it was.
///
/// Among handlers that ran at once (a stage that fanned out), the outcome names whichever accepting one opened last,
/// as the scheduler ran them: any of those that ran at once with it passes.
public func verifyHandled(_ trace: Trace, by handler: String) -> String? {
    if trace.outcome == .accepted(by: handler) { return nil }
    if HopsAtOnce(trace)?.interchangeableOutcomes(of: trace).contains(.accepted(by: handler)) == true { return nil }
    return "Expected \"\(TraceDescription.shown(handler))\" to accept the command; \(outcomeWords(trace.outcome)).\n"
        + TraceDescription.hops(of: trace)
}

/// Expects `trace` to end accepted by `handler`.
public func expectHandled(
    _ trace: Trace,
    by handler: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyHandled(trace, by: handler).map {
        reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// The message for a trace whose path is not `path`, or `nil` when it is.
///
/// Handlers that ran at once (a stage that fanned out with `async let` or a task group) are recorded in the order
/// the scheduler ran them: `path` may list them — and the handlers inside them — in any order that keeps what ran
/// one after the other, or inside another, in its order.
public func verifyPath(_ trace: Trace, _ path: [String]) -> String? {
    let names = trace.path
    if names == path { return nil }
    if let atOnce = HopsAtOnce(trace), atOnce.allows(path, names: names) { return nil }
    return "Path differs:\n" + TraceDescription.pathDifference(expected: path, actual: names)
        + TraceDescription.hops(of: trace)
}

/// Expects `trace` to have visited exactly `path`, in order (handlers that ran at once in any order, see
/// ``verifyPath(_:_:)``).
public func expectPath(
    _ trace: Trace,
    _ path: [String],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyPath(trace, path).map { reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column) }
}

/// The message for a trace that did (`visited: true`: did not) visit `handler`, or `nil`.
public func verifyVisited(_ trace: Trace, _ handler: String, _ visited: Bool = true) -> String? {
    if trace.visited(handler) == visited { return nil }
    return
        "Expected the command \(visited ? "to visit" : "not to visit") \"\(TraceDescription.shown(handler))\"; its path: "
        + TraceDescription.path(trace.path) + ".\n" + TraceDescription.hops(of: trace)
}

/// Expects `trace` to have visited `handler`.
public func expectVisited(
    _ trace: Trace,
    _ handler: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyVisited(trace, handler).map {
        reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Expects `trace` not to have visited `handler`.
public func expectNotVisited(
    _ trace: Trace,
    _ handler: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyVisited(trace, handler, false).map {
        reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// The message for a trace in which `handler` did not decide `decision`, or `nil` when it did.
public func verifyDecision(_ trace: Trace, _ handler: String, _ decision: Decision) -> String? {
    guard let hop = trace.hop(handler) else {
        return
            "Expected \"\(TraceDescription.shown(handler))\" to decide \(decision.rawValue); the command never reached it.\n"
            + TraceDescription.hops(of: trace)
    }
    if hop.decision == decision { return nil }
    return
        "Expected \"\(TraceDescription.shown(handler))\" to decide \(decision.rawValue); it \(hop.decision.rawValue).\n"
        + TraceDescription.hops(of: trace)
}

/// Expects `handler` to have decided `decision` on the command of `trace`.
public func expectDecision(
    _ trace: Trace,
    _ handler: String,
    _ decision: Decision,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyDecision(trace, handler, decision).map {
        reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// The message for a trace some handler accepted or failed, or `nil` when it fell off the end.
public func verifyUnhandled(_ trace: Trace) -> String? {
    if trace.outcome == .fellOffTheEnd { return nil }
    return "Expected no handler to take the command; \(outcomeWords(trace.outcome)).\n"
        + TraceDescription.hops(of: trace)
}

/// Expects the command of `trace` to have fallen off the end: no handler took it.
public func expectUnhandled(
    _ trace: Trace,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyUnhandled(trace).map { reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column) }
}

/// The message for a trace that did not fail at `handler` (with an error containing `error`, when given).
///
/// Among handlers that ran at once, the outcome names whichever failed first, as the scheduler ran them: any of those
/// that failed and ran at once with it passes.
public func verifyFailed(_ trace: Trace, at handler: String, error: String? = nil) -> String? {
    func matches(_ outcome: Outcome) -> Bool {
        guard case .failed(let failing, let message) = outcome, failing == handler else { return false }
        return error.map { message.contains($0) } ?? true
    }
    if matches(trace.outcome) { return nil }
    if HopsAtOnce(trace)?.interchangeableOutcomes(of: trace).contains(where: matches) == true { return nil }
    let wanted = error.map { " with an error containing \"\(TraceDescription.shown($0))\"" } ?? ""
    return
        "Expected the command to fail at \"\(TraceDescription.shown(handler))\"\(wanted); \(outcomeWords(trace.outcome)).\n"
        + TraceDescription.hops(of: trace)
}

/// Expects the command of `trace` to have failed at `handler`, with an error whose text contains `error`.
public func expectFailed(
    _ trace: Trace,
    at handler: String,
    error: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyFailed(trace, at: handler, error: error).map {
        reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

func outcomeWords(_ outcome: Outcome) -> String {
    switch outcome {
    case .accepted(let handler): "\"\(TraceDescription.shown(handler))\" accepted it"
    case .fellOffTheEnd: "it fell off the end: no handler took it"
    case .failed(let handler, let error):
        "it failed at \"\(TraceDescription.shown(handler))\": \(TraceDescription.shown(error))"
    }
}
