import CChainTraceSupport
import ChainTraceFastPath

/// Marks the instrumented hops that `body` opens directly inside the running hop as members of a registry: the
/// handler whose hop is running holds an internal chain of late responders (screens, plug-ins) that it asks in
/// turn, and their hops are recorded as that registry's, as a ``Chain``'s registry members are — each hop's
/// ``Hop/registry`` names the registry, and profiles list the members under it ("DetailScreen in Screens").
///
/// Call it inside the registry handler's own `traceHop`, around the code that asks its members; the handler the
/// command goes on to afterwards is no member:
///
/// ```swift
/// final class ScreenRegistry: Responder {
///     var screens: [(weight: Int, screen: Responder)] = []   // kept sorted by weight
///     var next: Responder?
///
///     func handle(_ action: Action) -> Bool {
///         traceHop("Screens", command: action, chain: "editor") {
///             let taken = traceRegistryMembers { screens.contains { $0.screen.handle(action) } }
///             return taken || (next?.handle(action) ?? false)
///         }
///     }
/// }
/// ```
///
/// Only hops opened directly inside the registry's hop are members: a member's own nested hops keep their
/// registry (none, or their own registry's). Outside any traced hop, or with no recorder in force, this just runs
/// `body`. Members are marked when `body` returns, not as each hop opens, so a hop costs nothing more.
public func traceRegistryMembers<Result>(_ body: () throws -> Result) rethrows -> Result {
    guard let (trace, scope) = ChainTracing.openMembers() else { return try body() }
    defer { trace.closeMembers(scope) }
    return try body()
}

/// Marks the async instrumented hops that `body` opens directly inside the running hop as members of a registry:
/// as `traceRegistryMembers(_:)`, for a registry that `await`s its members. Hops of child tasks that `body` starts
/// (members asked at once in a task group) are members too when they nest directly in the registry's hop.
nonisolated(nonsending) public func traceRegistryMembers<Result>(
    _ body: nonisolated(nonsending) () async throws -> Result
) async rethrows -> Result {
    guard let (trace, scope) = ChainTracing.openMembers() else { return try await body() }
    defer { trace.closeMembers(scope) }
    return try await body()
}

extension ChainTracing {
    /// The trace the running instrumented hop belongs to — the thread's, else the task's — and a member scope
    /// opened in it (see ``ActiveTrace/openMembers(task:)``); `nil` when nothing is being traced here.
    static func openMembers() -> (ActiveTrace, ActiveTrace.MemberScope)? {
        guard mayRecord, let trace = ThreadState.current.activeTrace?.object ?? taskHopsOfCaller.trace,
            let scope = trace.openMembers(task: currentTaskIdentity())
        else { return nil }
        return (trace, scope)
    }
}
