/// One command whose dry run (the handlers' `canHandle` tests, ``Chain/whoWouldHandle(_:from:)``) and real run
/// (what the handlers' bodies did) part ways: a `canHandle` that has drifted from its handler's body.
///
/// ```swift
/// for disagreement in try chain.dryRunDisagreements(commands) {
///     print(disagreement)   // command 3 (Coin): at Dime the dry run says wouldAccept, the real run passed; …
/// }
/// ```
///
/// A handler without a dry-run test (`cannotTell`) is taken at its word where the real run passed or continued
/// there; where it accepted or failed, the dry run could not have known, and the command is not reported.
public struct DryRunDisagreement: Sendable, Hashable, CustomStringConvertible {
    /// The command's place in the list or log compared, from 0.
    public let index: Int
    /// The command's kind and id, as its trace records them.
    public let commandKind: String
    /// The command's id, if it has one.
    public let commandID: String?
    /// What the dry run said.
    public let dryRun: DryRun
    /// The handlers the command really visited.
    public let path: [String]
    /// How the real run ended.
    public let outcome: Outcome
    /// The first handler where the two differ: one that answered differently from what it did, or the first
    /// handler on only one of the two paths.
    public let handler: String
    /// What the dry run says there (`nil` when its path had ended).
    public let predicted: DryRun.Answer?
    /// What the handler really decided there (`nil` when the real path had ended).
    public let decided: Decision?

    /// Compares `dryRun` with the real run recorded in `trace`; `nil` when they agree (or when a handler without a
    /// dry-run test accepted or failed, which the dry run could not know).
    public init?(dryRun: DryRun, trace: Trace, index: Int) {
        let hops = trace.hops
        var difference: (handler: String, predicted: DryRun.Answer?, decided: Decision?)?
        for position in 0..<max(dryRun.steps.count, hops.count) {
            let step = position < dryRun.steps.count ? dryRun.steps[position] : nil
            let hop = position < hops.count ? hops[position] : nil
            guard let step, let hop, step.handler == hop.handler else {
                difference = ((step?.handler ?? hop?.handler)!, step?.answer, hop?.decision)
                break
            }
            if step.answer == .cannotTell {
                if hop.decision == .passed || hop.decision == .continued { continue }
                return nil
            }
            if !Self.answer(step.answer, matches: hop.decision) {
                difference = (step.handler, step.answer, hop.decision)
                break
            }
        }
        guard let difference else { return nil }
        self.index = index
        commandKind = trace.commandKind
        commandID = trace.commandID
        self.dryRun = dryRun
        path = trace.path
        outcome = trace.outcome
        handler = difference.handler
        predicted = difference.predicted
        decided = difference.decided
    }

    /// The disagreements of the dry runs `dryRun` gives for the commands of `traces` with the traces.
    static func comparing<Command>(
        recorded traces: some Sequence<Trace>,
        command: (Trace) -> Command?,
        dryRun: (Command, String) throws(ChainError) -> DryRun
    ) throws(ChainError) -> [DryRunDisagreement] {
        var result: [DryRunDisagreement] = []
        for (index, trace) in traces.enumerated() {
            guard let command = command(trace) else { continue }
            if let disagreement = Self(dryRun: try dryRun(command, trace.entry), trace: trace, index: index) {
                result.append(disagreement)
            }
        }
        return result
    }

    static func answer(_ answer: DryRun.Answer, matches decision: Decision) -> Bool {
        switch answer {
        case .wouldAccept: decision == .accepted
        case .wouldPass: decision == .passed
        case .wouldContinue: decision == .continued
        case .wouldFail: decision == .failed
        case .cannotTell: decision == .passed || decision == .continued
        }
    }

    public var description: String {
        let command = "command \(index) (\(commandKind)\(commandID.map { " \($0)" } ?? ""))"
        let dryPath = dryRun.path.isEmpty ? "nowhere" : dryRun.path.joined(separator: " → ")
        let realPath = path.isEmpty ? "nowhere" : path.joined(separator: " → ")
        let predictedOutcome = dryRun.predictedOutcome.map { "\($0)" } ?? "undecided"
        let detail: String
        switch (predicted, decided) {
        case (let predicted?, let decided?):
            detail = "at \(handler) the dry run says \(predicted.rawValue), the real run \(decided.rawValue)"
        case (let predicted?, nil):
            detail = "the dry run goes on to \(handler) (\(predicted.rawValue)); the real run stopped before it"
        case (nil, let decided?):
            detail = "the real run went on to \(handler) (\(decided.rawValue)); the dry run stopped before it"
        case (nil, nil):
            detail = "at \(handler)"
        }
        return "\(command): \(detail); dry run: \(dryPath) (\(predictedOutcome)); real run: \(realPath) (\(outcome))"
    }
}

extension Chain {
    /// Sends every command for real and asks the dry run about it, and returns each command where the two part
    /// ways, in order — how to catch a `canHandle` that has drifted from its handler's body. The commands are
    /// really handled: use commands whose effects a test can afford, or compare with a recorded log instead
    /// (``dryRunDisagreements(recorded:command:)``).
    ///
    /// - Throws: ``ChainError`` for an unknown `entry`.
    public func dryRunDisagreements(
        _ commands: some Sequence<Command>,
        from entry: String? = nil
    ) throws(ChainError) -> [DryRunDisagreement] {
        let thread = SendingThread.current
        var result: [DryRunDisagreement] = []
        for (index, command) in commands.enumerated() {
            let dryRun = try whoWouldHandle(command, from: entry)
            let trace = try sendForTrace(command, from: entry, describedAs: (nil, nil, nil), on: thread)
            if let disagreement = DryRunDisagreement(dryRun: dryRun, trace: trace, index: index) {
                result.append(disagreement)
            }
        }
        return result
    }

    /// Asks the dry run about the command of every recorded trace and returns each one where it disagrees with
    /// what the recording shows — nothing is sent. `command` rebuilds a trace's command (from its payload, say);
    /// traces it returns `nil` for are skipped. Each command enters where its trace did.
    ///
    /// - Throws: ``ChainError`` for a trace whose entry this chain does not have.
    public func dryRunDisagreements(
        recorded traces: some Sequence<Trace>,
        command: (Trace) -> Command?
    ) throws(ChainError) -> [DryRunDisagreement] {
        try DryRunDisagreement.comparing(recorded: traces, command: command) { command, entry throws(ChainError) in
            try whoWouldHandle(command, from: entry)
        }
    }
}

extension AsyncChain {
    /// Asks the dry run about the command of every recorded trace and returns each one where it disagrees with
    /// what the recording shows; see ``Chain/dryRunDisagreements(recorded:command:)``.
    public func dryRunDisagreements(
        recorded traces: some Sequence<Trace>,
        command: (Trace) -> Command?
    ) throws(ChainError) -> [DryRunDisagreement] {
        try DryRunDisagreement.comparing(recorded: traces, command: command) { command, entry throws(ChainError) in
            try whoWouldHandle(command, from: entry)
        }
    }
}
