public import ChainTrace

/// Pairs the traces of two runs of the same commands and reports each command that went differently.
///
/// Commands match by id (`Trace/commandID`), else by their place in the run. An id given to several commands (a
/// retried command, ids that restart) pairs its occurrences in order: the first in one run with the first in the
/// other, and so on. Runs in the same order are compared as they stream, in constant memory; traces out of step
/// wait in a table until their partner comes.
///
/// A command's place is where it comes in its run, or — with `placesByStart` — where it comes in the order the
/// commands without an id started: a trace log is written as commands finish, from each thread's buffer, so the
/// traces of an app that sends from several threads or tasks are written out of the order they were sent even
/// when each was sent after the last had finished. Up to ``placeWindow`` traces are held to put them back in order.
public struct TraceMatcher: Sendable {
    /// The divergences found so far, in the order found.
    public private(set) var divergences: [Divergence] = []
    /// Pairs compared.
    public private(set) var compared = 0
    /// Whether every divergence is kept (`true`) or only counted after the first `keepLimit`.
    public let keepLimit: Int
    /// Divergences of each kind, all counted even beyond `keepLimit`.
    public private(set) var counts: [Divergence.Kind: Int] = [:]
    /// Whether commands without an id are placed in the order they started rather than in the order they came.
    public let placesByStart: Bool
    /// Commands without an id whose place may not say which command they are, so that they may have been compared
    /// with another. With ``placesByStart``: those that started while the command before them was still running
    /// (commands that ran at once, whose order is the scheduler's), and those that came more than
    /// ``placeWindow`` traces late. Without: those that started before a command placed before them. Give the
    /// commands ids (`TracedCommand/commandID`) to compare them one by one.
    public var uncertainPlaces: Int { firstPlaces.uncertain + secondPlaces.uncertain }

    /// How many traces without an id a run may hold back to put them in the order they started.
    public static let placeWindow = 16_384

    private var firstPlaces: Places
    private var secondPlaces: Places
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

    /// A trace summarised, with what pairs it.
    private struct Keyed: Sendable {
        var key: Key
        var summary: Divergence.RunSummary
        var kind: String
        /// Where it came in its run, for listing the unpaired in run order.
        var order: Int
    }

    private struct Waiting: Sendable {
        var summary: Divergence.RunSummary
        var kind: String
        /// Its place in its run: lines restart in each file of a log of several files.
        var order: Int
    }

    /// Starts matching; keeps the first `keepLimit` divergences whole and counts the rest. `placesByStart` places
    /// commands without an id in the order they started (see the type's description).
    public init(keepLimit: Int = 10_000, placesByStart: Bool = false) {
        self.keepLimit = keepLimit
        self.placesByStart = placesByStart
        firstPlaces = Places(byStart: placesByStart)
        secondPlaces = Places(byStart: placesByStart)
    }

    /// Adds the next trace of each run (either may be `nil` when that run has ended).
    public mutating func add(first: (Trace, line: Int?)?, second: (Trace, line: Int?)?) {
        add(first: first.map { ($0.0, $0.line, nil) }, second: second.map { ($0.0, $0.line, nil) })
    }

    /// Adds the next trace of each run with the line and, for a log of several files, the file it was read from.
    public mutating func add(first: (Trace, line: Int?, file: String?)?, second: (Trace, line: Int?, file: String?)?) {
        let left = first.flatMap { firstPlaces.admit($0.0, line: $0.line, file: $0.file) }
        let right = second.flatMap { secondPlaces.admit($0.0, line: $0.line, file: $0.file) }
        match(left, right)
    }

    /// Pairs or holds one trace of each run that is ready to be matched.
    private mutating func match(_ first: Keyed?, _ second: Keyed?) {
        if let first, let second, first.key == second.key, waitingFirst.isEmpty, waitingSecond.isEmpty {
            compare(first.summary, second.summary, command: first.key.name, kind: first.kind)
            return
        }
        if let first {
            if let partner = Self.takeOldest(first.key, from: &waitingSecond) {
                compare(first.summary, partner.summary, command: first.key.name, kind: first.kind)
            } else {
                waitingFirst[first.key, default: []].append(
                    Waiting(summary: first.summary, kind: first.kind, order: first.order)
                )
            }
        }
        if let second {
            if let partner = Self.takeOldest(second.key, from: &waitingFirst) {
                compare(partner.summary, second.summary, command: second.key.name, kind: second.kind)
            } else {
                waitingSecond[second.key, default: []].append(
                    Waiting(summary: second.summary, kind: second.kind, order: second.order)
                )
            }
        }
    }

    /// Matches the traces still held back to be put in order, then reports the commands left without a partner,
    /// in run order, once both runs have ended.
    public mutating func finish() {
        while !firstPlaces.isEmpty || !secondPlaces.isEmpty {
            match(firstPlaces.releaseEarliest(), secondPlaces.releaseEarliest())
        }
        let missing = waitingFirst.flatMap { key, queue in queue.map { (key, $0) } }.sorted { $0.1.order < $1.1.order }
        for (key, waiting) in missing {
            record(
                Divergence(
                    kind: .missing,
                    command: key.name,
                    commandKind: waiting.kind,
                    expected: waiting.summary,
                    actual: nil
                )
            )
        }
        let unexpected = waitingSecond.flatMap { key, queue in queue.map { (key, $0) } }.sorted {
            $0.1.order < $1.1.order
        }
        for (key, waiting) in unexpected {
            record(
                Divergence(
                    kind: .unexpected,
                    command: key.name,
                    commandKind: waiting.kind,
                    expected: nil,
                    actual: waiting.summary
                )
            )
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

    /// Where one run stands: how many traces it gave, the traces without an id held back to be put in the order
    /// they started, and how many of those have an uncertain place.
    private struct Places: Sendable {
        let byStart: Bool
        var count = 0
        var placed = 0
        var uncertain = 0
        /// The latest start of the traces placed so far, and the latest end.
        var latestStart = Int64.min
        var latestEnd = Int64.min
        var window = StartOrderWindow<Held>(capacity: TraceMatcher.placeWindow)
        /// Late releases counted into `uncertain` already.
        var lateCounted = 0

        struct Held: Sendable {
            var summary: Divergence.RunSummary
            var kind: String
            var order: Int
            var start: Int64
            var end: Int64
        }

        init(byStart: Bool) {
            self.byStart = byStart
        }

        var isEmpty: Bool { window.isEmpty }

        /// `trace`, the run's next, keyed — or `nil` while it is held back to be placed by its start.
        mutating func admit(_ trace: Trace, line: Int?, file: String?) -> Keyed? {
            count += 1
            let summary = Divergence.RunSummary(trace, line: line, file: file)
            if let id = trace.commandID {
                return Keyed(key: .id(id), summary: summary, kind: trace.commandKind, order: count)
            }
            let start = trace.startTime
            let (end, overflow) = start.addingReportingOverflow(Int64(clamping: trace.duration))
            let held = Held(
                summary: summary,
                kind: trace.commandKind,
                order: count,
                start: start,
                end: overflow ? .max : end
            )
            guard byStart else { return place(held) }
            guard let released = window.push(held, start: start) else { return nil }
            return place(released)
        }

        /// The earliest trace held back, placed; `nil` when none is held.
        mutating func releaseEarliest() -> Keyed? {
            guard let released = window.releaseEarliest() else { return nil }
            return place(released)
        }

        /// Gives `held` the next place, noting whether that place is uncertain.
        private mutating func place(_ held: Held) -> Keyed {
            placed += 1
            if byStart {
                // Started while the one before it ran, or released late: the order is not the order they were sent.
                if held.start < latestEnd || window.lateReleases > lateCounted { uncertain += 1 }
                lateCounted = window.lateReleases
            } else if held.start < latestStart {
                uncertain += 1
            }
            latestStart = max(latestStart, held.start)
            latestEnd = max(latestEnd, held.end)
            let place = byStart ? placed : count
            return Keyed(key: .place(place), summary: held.summary, kind: held.kind, order: held.order)
        }
    }

    private mutating func compare(
        _ expected: Divergence.RunSummary,
        _ actual: Divergence.RunSummary,
        command: String,
        kind: String
    ) {
        compared += 1
        if let divergence = Divergence.between(expected: expected, actual: actual, command: command, commandKind: kind)
        {
            record(divergence)
        }
    }

    private mutating func record(_ divergence: Divergence) {
        counts[divergence.kind, default: 0] += 1
        if divergences.count < keepLimit { divergences.append(divergence) }
    }
}
