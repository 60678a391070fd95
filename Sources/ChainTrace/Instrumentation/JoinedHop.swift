import ChainTraceFastPath

/// What an integration that calls a handler itself should do for its next hop (see
/// ``ChainTracing/openJoinedHop(_:commandType:chain:)``).
package enum JoinedHopOpening {
    /// Call the handler as it is: nothing is traced here, or the command is not.
    case untraced
    /// The hop is open in the task's trace: call the handler, then ``ChainTracing/closeJoinedHop(_:threw:)``.
    case opened(JoinedHop)
    /// The hop starts a trace or needs its task bound: call the handler inside the async `traceHop`.
    case needsTraceHop
}

/// A hop opened in the running trace of its task by ``ChainTracing/openJoinedHop(_:commandType:chain:)``.
package struct JoinedHop {
    let open: OpenAsyncHop
}

extension ChainTracing {
    /// Opens a hop for `handler` in the trace already running in the calling task, for a framework integration
    /// that awaits the handler itself (a middleware chain whose links it builds): the hop is recorded by these
    /// synchronous calls around the caller's own await, with no async frame of its own. What it buys: the
    /// closure frame of the async `traceHop` around each middleware — its task-allocator frame and executor
    /// checks (`chaintrace-http-benchmarks`, "TracingRouter, traced into memory").
    ///
    /// Only a hop that joins a trace its own task bound opens here. The first hop of a command, a hop in a child
    /// task, and a side call into another chain (a running trace of other commands and another chain) need the
    /// task-local binding that only `traceHop` makes: `.needsTraceHop`.
    ///
    /// - Parameters:
    ///   - handler: The handler's name in traces; evaluated only when the hop opens.
    ///   - commandType: The type of the commands the integration's hops record.
    ///   - chain: The chain's name.
    package static func openJoinedHop<Command>(
        _ handler: @autoclosure () -> String,
        commandType: Command.Type,
        chain: String
    ) -> JoinedHopOpening {
        guard mayRecord else { return .untraced }
        let task = taskHops
        switch task {
        case .skipping: return .untraced
        case .none: return .needsTraceHop
        case .tracing(let trace, let owner):
            guard !trace.isDelivered, trace.tracesCommands(of: Command.self) || trace.isOfChain(chain) else {
                return .needsTraceHop
            }
            let taskID = currentTaskIdentity()
            guard taskID == owner else { return .needsTraceHop }
            switch trace.begin(handler(), task: taskID, owner: owner) {
            case .opened:
                return .opened(
                    JoinedHop(open: OpenAsyncHop(trace: trace, task: taskID, binding: nil, isOutermost: false))
                )
            case .stopped, .traceIsOver:
                // Over the hop limit (the trace names the loop) or delivered meanwhile: the handler runs untraced.
                return .untraced
            }
        }
    }

    /// Closes `hop` as its handler returned (`error` `nil`) or threw `error`.
    package static func closeJoinedHop(_ hop: consuming JoinedHop, threw error: (any Error)?) {
        closeAsyncHop(hop.open, returned: error.map { .error($0) } ?? .value, role: .responder)
    }
}
