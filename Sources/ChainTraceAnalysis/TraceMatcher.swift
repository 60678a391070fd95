public import ChainTrace

/// Pairs the traces of two runs of the same commands and reports each command that went differently.
///
/// Commands match by id (`Trace/commandID`), else by their place in the run. Runs in the same order are
/// compared as they stream, in constant memory; traces out of step wait in a table until their partner comes.
public struct TraceMatcher: Sendable {
    /// The divergences found so far, in the order found.
    public private(set) var divergences: [Divergence] = []
    /// Pairs compared.
    public private(set) var compared = 0
    /// Whether every divergence is kept (`true`) or only counted after the first `keepLimit`.
    public let keepLimit: Int
    /// Divergences of each kind, all counted even beyond `keepLimit`.
    public private(set) var counts: [Divergence.Kind: Int] = [:]

    private var firstCount = 0
    private var secondCount = 0
    private var waitingFirst: [String: Waiting] = [:]
    private var waitingSecond: [String: Waiting] = [:]

    private struct Waiting: Sendable {
        var summary: Divergence.RunSummary
        var kind: String
        /// Its place in its run: lines restart in each file of a log of several files.
        var order: Int
    }

    /// Starts matching; keeps the first `keepLimit` divergences whole and counts the rest.
    public init(keepLimit: Int = 10_000) {
        self.keepLimit = keepLimit
    }

    /// Adds the next trace of each run (either may be `nil` when that run has ended).
    public mutating func add(first: (Trace, line: Int?)?, second: (Trace, line: Int?)?) {
        add(first: first.map { ($0.0, $0.line, nil) }, second: second.map { ($0.0, $0.line, nil) })
    }

    /// Adds the next trace of each run with the line and, for a log of several files, the file it was read from.
    public mutating func add(first: (Trace, line: Int?, file: String?)?, second: (Trace, line: Int?, file: String?)?) {
        let firstKey = first.map { key(of: $0.0, counter: &firstCount) }
        let secondKey = second.map { key(of: $0.0, counter: &secondCount) }
        if let first, let second, firstKey == secondKey, waitingFirst.isEmpty, waitingSecond.isEmpty {
            compare(
                Divergence.RunSummary(first.0, line: first.line, file: first.file),
                Divergence.RunSummary(second.0, line: second.line, file: second.file),
                command: firstKey!, kind: first.0.commandKind)
            return
        }
        if let first, let firstKey {
            let summary = Divergence.RunSummary(first.0, line: first.line, file: first.file)
            if let partner = waitingSecond.removeValue(forKey: firstKey) {
                compare(summary, partner.summary, command: firstKey, kind: first.0.commandKind)
            } else {
                waitingFirst[firstKey] = Waiting(summary: summary, kind: first.0.commandKind, order: firstCount)
            }
        }
        if let second, let secondKey {
            let summary = Divergence.RunSummary(second.0, line: second.line, file: second.file)
            if let partner = waitingFirst.removeValue(forKey: secondKey) {
                compare(partner.summary, summary, command: secondKey, kind: second.0.commandKind)
            } else {
                waitingSecond[secondKey] = Waiting(summary: summary, kind: second.0.commandKind, order: secondCount)
            }
        }
    }

    /// Reports the commands left without a partner, in run order, once both runs have ended.
    public mutating func finish() {
        for (key, waiting) in waitingFirst.sorted(by: { $0.value.order < $1.value.order }) {
            record(Divergence(kind: .missing, command: key, commandKind: waiting.kind, expected: waiting.summary, actual: nil))
        }
        for (key, waiting) in waitingSecond.sorted(by: { $0.value.order < $1.value.order }) {
            record(Divergence(kind: .unexpected, command: key, commandKind: waiting.kind, expected: nil, actual: waiting.summary))
        }
        waitingFirst = [:]
        waitingSecond = [:]
    }

    /// All divergences counted, kept or not.
    public var total: Int { counts.values.reduce(0, +) }

    private func key(of trace: Trace, counter: inout Int) -> String {
        counter += 1
        return trace.commandID ?? "#\(counter)"
    }

    private mutating func compare(_ expected: Divergence.RunSummary, _ actual: Divergence.RunSummary, command: String, kind: String) {
        compared += 1
        if let divergence = Divergence.between(expected: expected, actual: actual, command: command, commandKind: kind) {
            record(divergence)
        }
    }

    private mutating func record(_ divergence: Divergence) {
        counts[divergence.kind, default: 0] += 1
        if divergences.count < keepLimit { divergences.append(divergence) }
    }
}
