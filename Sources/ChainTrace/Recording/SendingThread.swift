/// The calling thread's recording state, looked up once for a loop that sends many commands on that thread
/// (a replay), instead of once per send and once per recycled trace.
///
/// Not `Sendable`: it belongs to the thread that made it, and must be used there only.
@usableFromInline
package struct SendingThread {
    @usableFromInline let state: ThreadState

    /// The calling thread's.
    package static var current: SendingThread { SendingThread(state: .current) }

    @usableFromInline
    init(state: ThreadState) {
        self.state = state
    }
}

@available(*, unavailable)
extension SendingThread: Sendable {}
