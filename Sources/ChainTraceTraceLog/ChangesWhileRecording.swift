import ChainTrace

/// The chain changes a trace log records that happened while its commands ran, told apart from the changes that
/// built the chain before its first recorded command.
///
/// A trace records the version of the chain it ran on, and a change the version it made. A change at or below the
/// version of the first trace of its chain built the chain every trace saw — a definition or a test's chain that
/// describes the chain as recording began already holds it. A change above it was made between commands: a replay
/// or a generated test, which cannot make it (a log names what changed, not the rules of the handlers that came
/// and went), may send later commands along another path.
package struct ChangesWhileRecording: Sendable {
    /// Every change the log records, oldest version first for each chain.
    package private(set) var edits: [ChainEdit] = []
    /// For each chain, the lowest version a trace of it ran on.
    package private(set) var earliestTraceVersion: [String: Int] = [:]

    package init() {}

    /// Notes a trace read from the log.
    package mutating func add(_ trace: Trace) {
        if let earliest = earliestTraceVersion[trace.chain], earliest <= trace.chainVersion { return }
        earliestTraceVersion[trace.chain] = trace.chainVersion
    }

    /// Takes the log's changes (a reader's `chainEdits`, once every trace is read).
    package mutating func set(_ edits: [ChainEdit]) {
        self.edits = edits.sorted { ($0.chain, $0.version) < ($1.chain, $1.version) }
    }

    /// Whether `edit` was made after the first trace of its chain ran; `false` for a chain with no trace.
    package func wasMadeWhileRecording(_ edit: ChainEdit) -> Bool {
        earliestTraceVersion[edit.chain].map { edit.version > $0 } ?? false
    }

    /// The changes made while recording.
    package var madeWhileRecording: [ChainEdit] { edits.filter(wasMadeWhileRecording) }

    /// The changes made while recording and before `trace` ran: those of its chain at or below its version.
    package func made(before trace: Trace) -> [ChainEdit] {
        edits.filter { $0.chain == trace.chain && $0.version <= trace.chainVersion && wasMadeWhileRecording($0) }
    }
}
