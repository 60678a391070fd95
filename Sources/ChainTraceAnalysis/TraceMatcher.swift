public import ChainTrace

/// Pairs the traces of two runs of the same commands and reports each command that went differently.
///
/// Commands match by id (`Trace/commandID`), else by their place in the run. An id given to several commands (a
/// retried command, ids that restart) pairs its occurrences in order: the first in one run with the first in the
/// other, and so on. Runs in the same order are compared as they stream, in constant memory; traces out of step
/// wait in a table until their partner comes.
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
    /// The traces of each run waiting for their partner, oldest first for each key.
    private var waitingFirst: [Key: [Waiting]] = [:]
    private var waitingSecond: [Key: [Waiting]] = [:]

    /// What pairs a trace with its partner: its command's id, else its place in its run. Apart, so that an id
    /// written like a place (`#3`) is not taken for one. The chain's name is no part of it: the runs compared may
    /// be one app's sessions recorded on two configurations whose chains are named apart (`app-a`, `app-b`).
    private enum Key: Hashable, Sendable {
        case id(String)
        case place(Int)

        /// As divergences name the command: its id, or `#` and its place.
        var name: String {
            switch self {
            case .id(let id): id
            case .place(let place): "#\(place)"
            }
        }
    }

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
        if let first, let second, let firstKey, firstKey == secondKey, waitingFirst.isEmpty, waitingSecond.isEmpty {
            compare(
                Divergence.RunSummary(first.0, line: first.line, file: first.file),
                Divergence.RunSummary(second.0, line: second.line, file: second.file),
                command: firstKey.name, kind: first.0.commandKind)
            return
        }
        if let first, let firstKey {
            let summary = Divergence.RunSummary(first.0, line: first.line, file: first.file)
            if let partner = Self.takeOldest(firstKey, from: &waitingSecond) {
                compare(summary, partner.summary, command: firstKey.name, kind: first.0.commandKind)
            } else {
                waitingFirst[firstKey, default: []].append(Waiting(summary: summary, kind: first.0.commandKind, order: firstCount))
            }
        }
        if let second, let secondKey {
            let summary = Divergence.RunSummary(second.0, line: second.line, file: second.file)
            if let partner = Self.takeOldest(secondKey, from: &waitingFirst) {
                compare(partner.summary, summary, command: secondKey.name, kind: second.0.commandKind)
            } else {
                waitingSecond[secondKey, default: []].append(Waiting(summary: summary, kind: second.0.commandKind, order: secondCount))
            }
        }
    }

    /// Reports the commands left without a partner, in run order, once both runs have ended.
    public mutating func finish() {
        let missing = waitingFirst.flatMap { key, queue in queue.map { (key, $0) } }.sorted { $0.1.order < $1.1.order }
        for (key, waiting) in missing {
            record(Divergence(kind: .missing, command: key.name, commandKind: waiting.kind, expected: waiting.summary, actual: nil))
        }
        let unexpected = waitingSecond.flatMap { key, queue in queue.map { (key, $0) } }.sorted { $0.1.order < $1.1.order }
        for (key, waiting) in unexpected {
            record(Divergence(kind: .unexpected, command: key.name, commandKind: waiting.kind, expected: nil, actual: waiting.summary))
        }
        waitingFirst = [:]
        waitingSecond = [:]
    }

    /// The oldest trace waiting under `key` in `table`, taken out of it.
    private static func takeOldest(_ key: Key, from table: inout [Key: [Waiting]]) -> Waiting? {
        guard var queue = table.removeValue(forKey: key), !queue.isEmpty else { return nil }
        let oldest = queue.removeFirst()
        if !queue.isEmpty { table[key] = queue }
        return oldest
    }

    /// All divergences counted, kept or not.
    public var total: Int { counts.values.reduce(0, +) }

    private func key(of trace: Trace, counter: inout Int) -> Key {
        counter += 1
        return trace.commandID.map(Key.id) ?? .place(counter)
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
