import ChainTraceFastPath

/// Batches of values made on a thread of its own, a few batches ahead of the one caller that takes them in order:
/// how a comparison reads its first log on the second core. (A replay's stream is read by ``CommandReadAhead``,
/// whose caller also reads batches while the thread is behind.)
///
/// The thread calls `fill` for each batch and waits while `batchesAhead` of them are untaken; `fill` says when
/// there is nothing more. Each batch the caller is done with goes back to the thread — handed over under the lock
/// after the caller let go of it — in `fill`'s argument, so that it can reuse what nothing else holds once it has
/// emptied the argument. Releasing this, or ``finish()``, stops the thread and waits for it.
package final class ReadAheadBatches<Element: Sendable> {
    private struct State {
        var batches: [[Element]] = []
        /// Batches the caller is done with, for the thread.
        var spent: [[Element]] = []
        var finished = false
        var cancelled = false
    }

    /// What only the caller's thread touches, read for every value: in a cell, so that its accesses skip the
    /// run-time exclusivity check (as stored properties of this class, `chaintrace replay` of a million flat lines
    /// took 0.27 s instead of 0.23–0.25).
    private struct Taking {
        var current: [Element] = []
        var index = 0
        var done = false
    }

    private let state = ConditionLock(State())
    private let taking = UncheckedCell.make(Taking())
    private var thread: JoinableThread?

    /// Starts the thread.
    ///
    /// - Parameters:
    ///   - batchesAhead: Batches made before the thread waits for the caller.
    ///   - fill: Makes the next batch, given the batches the caller has finished with since the last call (to
    ///     empty before reusing their values: while they hold them, nothing is held by the thread alone);
    ///     `finished` is `true` for the last one. Runs on the thread only.
    package init(
        batchesAhead: Int,
        fill: sending @escaping (_ spent: inout [[Element]]) -> (batch: [Element], finished: Bool)
    ) {
        let (state, ahead) = (state, max(1, batchesAhead))
        thread = JoinableThread(running: {
            var spent: [[Element]] = []
            while true {
                let (batch, finished) = fill(&spent)
                spent = state.withLock { state in
                    if !batch.isEmpty { state.batches.append(batch) }
                    state.finished = finished
                    defer { state.spent.removeAll() }
                    return state.spent
                }
                if finished { return }
                state.wait { $0.batches.count < ahead || $0.cancelled }
                if state.withLock({ $0.cancelled }) { return }
            }
        })
    }

    deinit {
        finish()
    }

    /// The next value, or `nil` once the thread has finished and every batch was taken.
    package func next() -> Element? {
        if taking.value.index < taking.value.current.count {
            defer { taking.value.index += 1 }
            return taking.value.current[taking.value.index]
        }
        if taking.value.done { return nil }
        var next: [Element] = []
        state.wait { !$0.batches.isEmpty || $0.finished }
        state.withLock { state in
            // The batch just taken goes back moved (no copy left here): the thread that checks whether anything
            // still holds its values sees every use this thread made of them.
            if !taking.value.current.isEmpty {
                state.spent.append(taking.value.current)
                taking.value.current = []
            }
            if !state.batches.isEmpty {
                next = state.batches.removeFirst()
            } else {
                taking.value.done = true
            }
        }
        if next.isEmpty { return nil }
        taking.value.current = next
        taking.value.index = 1
        return taking.value.current[0]
    }

    /// Stops the thread and waits for it: from then on what it read from is the caller's again.
    package func finish() {
        state.withLock { $0.cancelled = true }
        thread?.join()
        thread = nil
    }
}
