import ChainTraceFastPath

/// A ``LinearTrace`` seen without a reference to its trace: valid while the ``LinearTrace`` it was taken from
/// (``LinearTrace/unretained``) is held — by the integration's per-command object, whose hops use this one.
///
/// What it buys: holding a second reference to the trace kept it from being reused once delivered, so a traced gRPC
/// call allocated, filled and freed a new one (`chaintrace-grpc-benchmarks`, "traced", 0 interceptors; callgrind).
package struct UnretainedLinearTrace: Sendable {
    /// `nil` for a command that is not traced.
    let trace: UnretainedObject<ActiveTrace>?
    /// The task that started it.
    let owner: Int

    /// ``LinearTrace/isOwnedByRunningTask``.
    package var isOwnedByRunningTask: Bool { owner == currentTaskIdentity() }

    /// ``LinearTrace/open(_:)``.
    package func open(_ handler: String) -> Bool {
        trace?.withObject { $0.beginNestedHop(handler) } ?? false
    }

    /// ``LinearTrace/close(threw:role:)``.
    package func close(threw error: (any Error)?, role: HandlerRole) {
        trace?.withObject { $0.endNestedHop(threw: error, role: role) }
    }

    /// ``LinearTrace/close(threw:)``.
    package func close(threw error: (any Error)?) {
        close(threw: error, role: .responder)
    }

    /// ``LinearTrace/closeAnswered(reason:)``.
    package func closeAnswered(reason: String) {
        trace?.withObject { $0.end(.judged(.accepted, reason), role: .responder) }
    }

    /// ``LinearTrace/keepDeepestContext(_:)``.
    @inline(__always)
    package func keepDeepestContext(_ read: () -> (any Sendable)?) {
        trace?.withObject { $0.keepDeepestContext(read) }
    }
}
