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
    taskLocalValueAddress(key: UnsafeRawPointer(Unmanaged.passUnretained(local).toOpaque()), as: Value.self)
}

/// ``taskLocalValueAddress(of:)`` by the address of the `TaskLocal` object (`key`), of a task-local whose values are
/// of type `Value`.
@inlinable
func taskLocalValueAddress<Value>(key: UnsafeRawPointer, as _: Value.Type) -> UnsafePointer<Value>? {
    guard let address = chaintrace_task_local_value(key) else { return nil }
    return UnsafePointer(address.assumingMemoryBound(to: Value.self))
}

/// The calling task's bound value of a task-local, read in place where the task keeps it: what
/// ``taskLocalValueAddress(of:)`` finds, for code outside this module, which reads the value and never the address.
/// Valid for as long as that address is.
@frozen @usableFromInline package struct TaskLocalBinding<Value> {
    @usableFromInline let address: UnsafePointer<Value>

    @inlinable
    init(address: UnsafePointer<Value>) {
        self.address = address
    }

    /// The bound value, borrowed in place (not copied).
    @inlinable package var value: Value {
        unsafeAddress { address }
    }
}

/// The calling task's binding of `local`, read in place (see ``taskLocalValueAddress(of:)``), or `nil` where none is
/// bound.
@inlinable
package func taskLocalBinding<Value>(of local: TaskLocal<Value>) -> TaskLocalBinding<Value>? {
    taskLocalValueAddress(of: local).map(TaskLocalBinding.init(address:))
}

/// The calling task's binding of `local` — the task-local of async instrumented hops' traces, and no other: its
/// object is published once, in `chaintrace_task_hops_key_slot`, and read from there by every later call, so
/// `local` is evaluated only by the first.
///
/// What it buys: read through the Swift global holding it, the task-local cost each async hop a call to the
/// global's accessor and `swift_once`, about 16 instructions (callgrind, `chaintrace-benchmarks`, "async
/// instrumented chain (traceHop), traced"). The lookup is ``taskLocalValueAddress(of:)``'s, tested against `get()` in
/// `TaskLocalAddressTests`; this, as async hops read it, against `get()` in `TaskHopsBindingTests`.
@inlinable
package func taskHopsBinding<Value>(of local: @autoclosure () -> TaskLocal<Value>) -> TaskLocalBinding<Value>? {
    let key = chaintrace_task_hops_key() ?? publishTaskHopsKey(local())
    return taskLocalValueAddress(key: key, as: Value.self).map(TaskLocalBinding.init(address:))
}

/// Publishes `local` as the task-local of async hops' traces (see ``taskHopsBinding(of:)``); out of line, run once.
@usableFromInline @inline(never)
func publishTaskHopsKey<Value>(_ local: TaskLocal<Value>) -> UnsafeRawPointer {
    let key = UnsafeRawPointer(Unmanaged.passUnretained(local).toOpaque())
    chaintrace_publish_task_hops_key(key)
    return key
}

/// Binds `value` to `local` for the calling task until ``popTaskLocalBinding()``: what `TaskLocal.withValue` does
/// around its operation (the runtime's `swift_task_localValuePush`, through `chaintrace_task_local_push`), without
/// taking the operation as a closure. Every push must be popped by the same task, in the same function, on every
/// path out of it (a throw too), after every binding made inside it ended.
///
/// What it buys: a traced request's first middleware binds the request's trace around the rest of the chain with no
/// scope of its own. Through `withValue` (and the function that wrapped it) that was three async frames more a
/// request — task allocations and executor checks: 1 700 instructions (21 735 → 20 037 a request with no
/// middleware, `chaintrace-http-benchmarks`, "TracingRouter, traced into memory"; callgrind). Tested against
/// `withValue` in `TaskLocalAddressTests`.
@inlinable
package func pushTaskLocalBinding<Value>(_ local: TaskLocal<Value>, _ value: Value) {
    withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
        let slot = buffer.baseAddress!
        slot.initialize(to: value)
        // The runtime takes the value from `slot` (it initializes its binding by a move), which leaves it
        // uninitialized: nothing to deinitialize here.
        chaintrace_task_local_push(
            UnsafeRawPointer(Unmanaged.passUnretained(local).toOpaque()),
            UnsafeMutableRawPointer(slot),
            unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
        )
    }
}

/// Removes the calling task's innermost task-local binding, made by ``pushTaskLocalBinding(_:_:)``.
@inlinable
package func popTaskLocalBinding() {
    chaintrace_task_local_pop()
}
