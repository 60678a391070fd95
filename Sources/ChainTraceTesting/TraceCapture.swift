public import ChainTrace

/// Runs `body` and returns every trace it produced — of `Chain`s and `AsyncChain`s whose own recorder is off,
/// and of instrumented chains — in the order they started.
///
/// **What is captured.** Every trace recorded in the calling task and its child tasks; tests running in
/// parallel, as Swift Testing runs them, never see each other's, even of a chain they share. Also the traces
/// recorded *on threads the task did not start* (Dispatch queues, `Thread`s, event loops — anything outside
/// every recorder scope) of the chains this capture involves: the chains in `chains`, and every chain it has
/// recorded a trace of in its own task.
///
/// **Never silently partial.** A trace from such a thread belongs to this capture only if no other open
/// capture involves its chain. When two captures running at once both involve it, neither takes it, and each
/// reports a test failure saying how many traces of which chain it could not attribute; so does a capture that
/// took no trace at all while traces of other chains arrived from such threads. To fix either, run the other
/// threads' work inside the test's recorder (`let recorder = ChainTracing.recorder` in the test, then
/// `ChainTracing.withRecorder(recorder) { … }` on the thread), or keep such tests from running in parallel
/// (`@Suite(.serialized)`).
///
/// ```swift
/// let traces = try captureTraces {
///     _ = try chain.send(Coin(diameter: 17.91, weight: 2.268))
/// }
/// expectHandled(traces[0], by: "Dime")
///
/// // Commands sent only from threads the test did not start: name the chain.
/// let fromQueues = captureTraces(of: ["coins"]) {
///     DispatchQueue.concurrentPerform(iterations: 40) { _ in _ = try? chain.send(penny) }
/// }
/// ```
///
/// - Parameters:
///   - chains: Chains whose traces from other threads belong to this capture even before it records one of
///     them in its own task.
///   - fileID: Where a failure to attribute traces is reported: the caller's, by default.
///   - filePath: The same, as a path (XCTest reports by it).
///   - line: The same, its line.
///   - column: The same, its column.
///   - body: The code whose traces to capture.
public func captureTraces(
    of chains: [String] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: () throws -> Void
) rethrows -> [Trace] {
    let (_, result) = try TraceCaptureScope.run(chains: chains, body)
    reportUnattributed(result, fileID: fileID, filePath: filePath, line: line, column: column)
    return result.traces
}

/// Runs async `body` and returns every trace it produced, captured as the synchronous form captures them.
public func captureTraces(
    of chains: [String] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: () async throws -> Void
) async rethrows -> [Trace] {
    let (_, result) = try await TraceCaptureScope.run(chains: chains, body)
    reportUnattributed(result, fileID: fileID, filePath: filePath, line: line, column: column)
    return result.traces
}

/// The failure message for what a closed capture could not attribute, or `nil` when it took everything.
package func unattributedMessage(_ result: TraceCaptureScope.Result) -> String? {
    func listed(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.value) of \"\(TraceDescription.shown($0.key))\"" }.joined(separator: ", ")
    }
    var parts: [String] = []
    if !result.ambiguous.isEmpty {
        parts.append(
            "captureTraces could not attribute traces recorded on threads outside its task (\(listed(result.ambiguous))): "
                + "another capture open at the same time involves the same chain, so they are in neither result")
    }
    if !result.unclaimed.isEmpty {
        parts.append(
            "captureTraces took no trace, while traces were recorded on threads outside its task "
                + "(\(listed(result.unclaimed))); if they are this test's, name their chains: captureTraces(of: [\"…\"])")
    }
    guard !parts.isEmpty else { return nil }
    return parts.joined(separator: "; ")
        + ". Read `let recorder = ChainTracing.recorder` in the test and run that work in "
        + "`ChainTracing.withRecorder(recorder) { … }` on its thread, "
        + "or run such tests one at a time (@Suite(.serialized))."
}

private func reportUnattributed(
    _ result: TraceCaptureScope.Result, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
    guard let message = unattributedMessage(result) else { return }
    reportFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
}
