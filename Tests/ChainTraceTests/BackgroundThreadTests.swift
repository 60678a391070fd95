import CChainTraceSupport
import ChainTraceFastPath
import Testing

/// `JoinableThread(inBackground:)`: a thread started in the background runs at the lowest priority where that can
/// be done (Linux: its own nice value 19), and only it — the starting thread and threads started normally keep
/// theirs.
@Suite("Threads started in the background")
struct BackgroundThreadTests {
    /// The nice value `body` runs at, on a thread started with `inBackground`.
    private func niceValue(inBackground: Bool) -> Int32 {
        let seen = LockedValue<Int32?>(nil)
        let thread = JoinableThread(inBackground: inBackground) {
            let value = chaintrace_thread_nice()
            seen.withLock { $0 = value }
        }
        thread.join()
        return seen.withLock { $0 } ?? -100
    }

    @Test func aBackgroundThreadRunsAtTheLowestPriorityAndNoOtherDoes() {
        let before = chaintrace_thread_nice()
        let background = niceValue(inBackground: true)
        let normal = niceValue(inBackground: false)
        #expect(chaintrace_thread_nice() == before)
        if JoinableThread.canRunInBackground {
            #expect(background == 19)
            // A thread inherits its creator's nice value: the caller's, not the background thread's.
            #expect(normal == before)
        } else {
            #expect(background == normal)
        }
    }
}
