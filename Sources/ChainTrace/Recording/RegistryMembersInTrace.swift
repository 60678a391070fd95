import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceJSON

extension ActiveTrace {
    /// Where a registry's members' hops begin: the registry's own hop, open while its members are asked (see
    /// ``traceRegistryMembers(_:)``), and the first record made since.
    struct MemberScope: Sendable {
        var registry: Int32
        var first: Int
    }

    /// Starts marking the hops opened directly inside the innermost open hop (of the calling task, in a shared
    /// trace) as that hop's registry's members; `nil` when no hop is open (or the trace was delivered).
    func openMembers() -> MemberScope? {
        let task = isShared ? currentTaskIdentity() : 0
        return withContent { content in
            guard !isDelivered else { return nil }
            let registry = innermostOpenHop(content, task: task)
            guard registry >= 0 else { return nil }
            return MemberScope(registry: Int32(truncatingIfNeeded: registry), first: content.records.count)
        }
    }

    /// Marks each hop opened since `scope` began directly inside its registry's hop as a member of that registry:
    /// the registry's name is its hop's, so the record names the hop (as ``HopRecord/handler`` does).
    ///
    /// Marked when the members have been asked, not as each opens: a hop opening looks at nothing more.
    func closeMembers(_ scope: MemberScope) {
        withContent { content in
            guard !isDelivered, scope.first < content.records.count else { return }
            for index in scope.first..<content.records.count
            where content.records[index].parent == scope.registry && content.records[index].registry < 0 {
                content.records[index].registry = scope.registry
            }
        }
    }

    /// Marks the innermost open hop (of the calling task, in a shared trace) as a member of the registry whose hop,
    /// named `registry`, is the nearest of the hops it runs inside with that name; `false` when no hop is open or
    /// none it runs inside has that name.
    func markMember(of registry: String) -> Bool {
        let task = isShared ? currentTaskIdentity() : 0
        return withContent { content in
            guard !isDelivered else { return false }
            let hop = innermostOpenHop(content, task: task)
            guard hop >= 0 else { return false }
            var enclosing = Int(content.records[hop].parent)
            while enclosing >= 0 {
                if content.name(at: enclosing) == registry {
                    content.records[hop].registry = Int32(truncatingIfNeeded: enclosing)
                    return true
                }
                enclosing = Int(content.records[enclosing].parent)
            }
            return false
        }
    }

    /// Overrides the decision the innermost open hop (of the calling task, in a shared trace) would otherwise be
    /// given.
    func override(_ decision: Decision, reason: String?) {
        let task = isShared ? currentTaskIdentity() : 0
        withContent { content in
            let innermost = innermostOpenHop(content, task: task)
            guard innermost >= 0 else { return }
            content.overrides.removeAll { $0.record == innermost }
            content.overrides.append(Override(record: innermost, decision: decision, reason: reason))
        }
    }
}
