import CChainTraceSupport

/// Where the calling task keeps its bound value of `local`, or `nil` where none is bound (its value is then the
/// default): the address `TaskLocal.get()` reads before it copies the value out (the runtime's
/// `swift_task_localValueGet`, through `chaintrace_task_local_value`).
///
/// What it buys: an async instrumented hop reads the task's trace in place, borrowing the reference the binding
/// holds. `get()` is a generic call whose copy of the value, through its value witnesses, retains the trace, which
/// the hop then released: about 100 instructions a hop (callgrind, `chaintrace-benchmarks`, "async instrumented
/// chain (traceHop), traced"). Tested against `get()` in `TaskLocalAddressTests`.
///
/// The address is valid while the binding it belongs to is: inside the `withValue` scope that made it (a scope
/// enclosing the caller's, when the caller found it), or, for a value a task inherited, while that task runs.
@inlinable
package func taskLocalValueAddress<Value>(of local: TaskLocal<Value>) -> UnsafePointer<Value>? {
    guard let address = chaintrace_task_local_value(UnsafeRawPointer(Unmanaged.passUnretained(local).toOpaque()))
    else { return nil }
    return UnsafePointer(address.assumingMemoryBound(to: Value.self))
}
