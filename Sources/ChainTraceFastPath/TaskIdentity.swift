import CChainTraceSupport

/// The calling task's identity: the address of its task object, 0 outside any task (`chaintrace_current_task`,
/// the concurrency runtime's `swift_task_getCurrent`).
///
/// What it buys: a shared async trace keeps each task's innermost hop apart by task, once a hop.
/// `withUnsafeCurrentTask { $0?.hashValue }` — a generic call whose result is copied through value witnesses, and
/// a SipHash of the same address — cost about 150 instructions a hop more (callgrind, the async `traceHop` row of
/// `chaintrace-benchmarks`). Tested against `UnsafeCurrentTask`'s own `==` in FastPathTests. An identity is only
/// compared while its task runs: a task's address may be reused once it has ended.
@inlinable
package func currentTaskIdentity() -> Int {
    chaintrace_current_task()
}
