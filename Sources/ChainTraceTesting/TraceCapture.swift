public import ChainTrace

/// Runs `body` and returns every trace it produced — of `Chain`s and `AsyncChain`s whose own recorder is off,
/// and of instrumented chains — in the order they started.
///
/// **What is captured.** Every trace recorded in the calling task and its child tasks, and nothing else: tests
/// running in parallel, as Swift Testing runs them, never see each other's traces, even of a chain they share,
/// whatever else runs at the same time.
///
/// **Work on other threads.** Commands sent on threads the test's task did not start — Dispatch queues,
/// `Thread`s, event loops, detached tasks — run outside the test's recorder. Name their chains in `chains` and
/// the capture also takes every trace of those chains recorded outside any recorder scope while it runs. Naming
/// a chain claims it: when two captures that name the same chain run at the same time, nobody can tell whose
/// such a trace is, so neither takes it and both report a test failure naming the other capture. Run such tests
/// one at a time (`@Suite(.serialized)`), or run the other threads' work inside the test's recorder instead
/// (`let recorder = ChainTracing.recorder` in the test, then `ChainTracing.withRecorder(recorder) { … }` on the
/// thread) and name nothing.
///
/// ```swift
/// let traces = try captureTraces {
///     _ = try chain.send(Coin(diameter: 17.91, weight: 2.268))
/// }
/// expectHandled(traces[0], by: "Dime")
///
/// // Commands sent from threads the test did not start: name the chain.
/// let fromQueues = captureTraces(of: ["coins"]) {
///     DispatchQueue.concurrentPerform(iterations: 40) { _ in _ = try? chain.send(penny) }
/// }
/// ```
///
/// - Parameters:
///   - chains: Chains whose traces recorded outside any recorder scope (on other threads) this capture takes.
///   - payloads: Whether the traces carry their commands as JSON; `Payloads/none` by default, as a recorder's.
///   - fileID: Where a failure to attribute traces is reported: the caller's, by default.
///   - filePath: The same, as a path (XCTest reports by it).
///   - line: The same, its line.
///   - column: The same, its column.
///   - body: The code whose traces to capture.
public func captureTraces(
    of chains: [String] = [],
    payloads: Payloads = .none,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: () throws -> Void
) rethrows -> [Trace] {
    let (_, result) = try TraceCaptureScope.run(
        claims: chains,
        description: captureDescription(chains, fileID: fileID, line: line),
        payloads: payloads,
        body
    )
    reportUnattributed(result, fileID: fileID, filePath: filePath, line: line, column: column)
    return result.traces
}

/// Runs async `body` and returns every trace it produced, captured as the synchronous form captures them.
///
/// - Parameters:
///   - chains: Chains whose traces recorded outside any recorder scope (on other threads) this capture takes.
///   - payloads: Whether the traces carry their commands as JSON; `Payloads/none` by default, as a recorder's.
///   - fileID: Where a failure to attribute traces is reported: the caller's, by default.
///   - filePath: The same, as a path (XCTest reports by it).
///   - line: The same, its line.
///   - column: The same, its column.
///   - isolation: The actor `body` runs on: the caller's.
///   - body: The code whose traces to capture.
public func captureTraces(
    of chains: [String] = [],
    payloads: Payloads = .none,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> [Trace] {
    let (_, result) = try await TraceCaptureScope.run(
        claims: chains,
        description: captureDescription(chains, fileID: fileID, line: line),
        payloads: payloads,
        isolation: isolation,
        body
    )
    reportUnattributed(result, fileID: fileID, filePath: filePath, line: line, column: column)
    return result.traces
}

/// How a capture is named in another's failure: `captureTraces(of: ["coins"]) at AppTests/CoinTests.swift:12`.
private func captureDescription(_ chains: [String], fileID: StaticString, line: UInt) -> String {
    let names = chains.map { "\"\(TraceDescription.shown($0))\"" }.joined(separator: ", ")
    return "captureTraces(of: [\(names)]) at \(fileID):\(line)"
}

/// The failure message for a closed capture that overlapped another claiming one of its chains, or `nil` when
/// it overlapped none.
package func unattributedMessage(_ result: TraceCaptureScope.Result) -> String? {
    guard !result.overlaps.isEmpty else { return nil }
    let unattributed = result.unattributed.sorted { $0.key < $1.key }
        .map { "\($0.value) of \"\(TraceDescription.shown($0.key))\"" }
    let lost =
        unattributed.isEmpty
        ? "none was recorded while both were open"
        : "\(unattributed.joined(separator: ", ")) went to neither"
    return "captureTraces ran at the same time as \(result.overlaps.joined(separator: " and ")), "
        + "which names the same chain: traces of it recorded outside both tests' tasks could be either's "
        + "(\(lost)). Run these tests one at a time (@Suite(.serialized)), or run the other threads' work in "
        + "`ChainTracing.withRecorder(recorder) { … }` with `let recorder = ChainTracing.recorder` read in the test, "
        + "and name no chain."
}

private func reportUnattributed(
    _ result: TraceCaptureScope.Result,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
) {
    guard let message = unattributedMessage(result) else { return }
    reportFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
}
