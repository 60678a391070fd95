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
public func traceRegistryMembers<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async rethrows -> Result {
    guard let (trace, scope) = ChainTracing.openMembers() else { return try await body() }
    defer { trace.closeMembers(scope) }
    return try await body()
}

extension ChainTracing {
    /// Marks the instrumented hop this code runs in as a member of `registry`: the handler of that name whose hop
    /// this one runs inside, however deep — for late responders that know their registry, and whose internal chain
    /// is linked (each member calls the next, as a responder chain does), so that only the first runs directly in
    /// the registry's hop. The member side of `traceRegistryMembers(_:)`; the registry's handler must be traced.
    ///
    /// ```swift
    /// func handle(_ action: Action) -> Bool {
    ///     traceHop(name, command: action, chain: "editor") {
    ///         ChainTracing.markMember(of: registry.name)
    ///         return actions.contains(action.name) || (next?.handle(action) ?? false)
    ///     }
    /// }
    /// ```
    ///
    /// A proxy member that forwards to a responder elsewhere in the app stays the member; the responder's hop,
    /// nested in it, does not become one.
    ///
    /// - Returns: Whether the hop was marked: `false` outside a traced hop, and when no hop it runs inside is named
    ///   `registry`.
    @discardableResult
    public static func markMember(of registry: String) -> Bool {
        guard mayRecord, let trace = runningTrace else { return false }
        return trace.markMember(of: registry)
    }

    /// The trace the running instrumented hop belongs to — the thread's, else the task's — and a member scope
    /// opened in it (see ``ActiveTrace/openMembers()``); `nil` when nothing is being traced here.
    static func openMembers() -> (ActiveTrace, ActiveTrace.MemberScope)? {
        guard mayRecord, let trace = runningTrace, let scope = trace.openMembers() else { return nil }
        return (trace, scope)
    }
}
