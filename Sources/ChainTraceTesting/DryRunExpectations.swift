public import ChainTrace

/// The failure message when the dry run of any of `commands` disagrees with its real run, or `nil`. The commands
/// are really sent through `chain`.
public func verifyDryRunAgrees<Command, Result>(
    _ chain: Chain<Command, Result>,
    with commands: some Sequence<Command>,
    from entry: String? = nil
) -> String? {
    do {
        return message(try chain.dryRunDisagreements(commands, from: entry))
    } catch {
        return "Could not send the commands: \(TraceDescription.shown("\(error)"))"
    }
}

/// Expects every handler's `canHandle` to agree with its body: for each of `commands`, the dry run
/// (`whoWouldHandle`) takes the path and reaches the outcome the real run does. The commands are really sent.
///
/// ```swift
/// expectDryRunAgrees(chain, with: [Coin.penny, Coin.dime, Coin.washer])
/// ```
public func expectDryRunAgrees<Command, Result>(
    _ chain: Chain<Command, Result>,
    with commands: some Sequence<Command>,
    from entry: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyDryRunAgrees(chain, with: commands, from: entry)
        .map { reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column) }
}

/// The failure message when the dry run of a recorded trace's command disagrees with the recording, or `nil`.
public func verifyDryRunAgrees<Command, Result>(
    _ chain: Chain<Command, Result>,
    withRecorded traces: some Sequence<Trace>,
    command: (Trace) -> Command?
) -> String? {
    do {
        return message(try chain.dryRunDisagreements(recorded: traces, command: command))
    } catch {
        return "Could not ask the dry run: \(TraceDescription.shown("\(error)"))"
    }
}

/// Expects the dry run to agree with what a recorded log shows for every command `command` rebuilds from its
/// trace — nothing is sent.
///
/// ```swift
/// let log = try TraceLogReader.readAll(path: "recorded.traces.jsonl")
/// expectDryRunAgrees(chain, withRecorded: log.traces) { trace in
///     trace.payload.flatMap(Coin.init(json:))   // your command, rebuilt from its recorded JSON
/// }
/// ```
public func expectDryRunAgrees<Command, Result>(
    _ chain: Chain<Command, Result>,
    withRecorded traces: some Sequence<Trace>,
    command: (Trace) -> Command?,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyDryRunAgrees(chain, withRecorded: traces, command: command)
        .map { reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column) }
}

private func message(_ disagreements: [DryRunDisagreement]) -> String? {
    guard !disagreements.isEmpty else { return nil }
    let shown = disagreements.prefix(10).map { "  " + TraceDescription.shown($0.description) }.joined(separator: "\n")
    let more = disagreements.count > 10 ? "\n  … and \(disagreements.count - 10) more" : ""
    return
        "The dry run disagrees with the real run for \(disagreements.count) command\(disagreements.count == 1 ? "" : "s") "
        + "(a canHandle that no longer matches its handler):\n\(shown)\(more)"
}
