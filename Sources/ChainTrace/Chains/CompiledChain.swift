import ChainTraceFastPath

/// An immutable, index-linked copy of a chain's structure: what `send` walks.
///
/// Edits build a new one; a send keeps the one it started with, so a command never sees a half-made change.
/// Handler names live in one ``HandlerNameTable``: node `i` has name index `i`, registry members follow.
@usableFromInline
final class CompiledChain<Member: ChainMember>: Sendable {
    /// `@unchecked Sendable`: `box` points at the `Sendable` box that `handler` holds, which is immutable.
    @usableFromInline
    struct Node: @unchecked Sendable {
        /// `nil` for a registry.
        @usableFromInline let handler: Member?
        @usableFromInline let next: Int32
        /// For a registry, its index in `registries`; otherwise -1.
        @usableFromInline let registry: Int32
        /// The handler's box, unretained (`handler` keeps it alive), so a walk can call it without touching its
        /// reference count — which threads sharing the chain would otherwise fight over on every hop. Measured
        /// (`chaintrace-benchmarks`, interleaved, with the box retained per hop instead): an untraced hop 7.8 →
        /// 15.8–16.3 ns, a traced one 32.5–33.1 → 35.9–36.9 ns, two threads on one chain 3.89–4.10 → 3.18–3.26 M
        /// commands/s.
        @usableFromInline let box: UnsafeRawPointer?
    }

    /// `@unchecked Sendable` for the same reason as ``Node``.
    @usableFromInline
    struct RegisteredMember: @unchecked Sendable {
        @usableFromInline let handler: Member
        @usableFromInline let name: Int32
        /// The handler's box, unretained: `handler` keeps it alive for as long as this snapshot lives.
        @usableFromInline let box: UnsafeRawPointer
    }

    @usableFromInline let chainName: String
    @usableFromInline let version: Int
    @usableFromInline let names: HandlerNameTable
    @usableFromInline let nodes: ContiguousArray<Node>
    /// The members of each registry, in the order commands reach them.
    @usableFromInline let registries: [[RegisteredMember]]
    @usableFromInline let head: Int32
    @usableFromInline let hopLimit: Int
    @usableFromInline let recorder: Recorder
    @usableFromInline let command: CommandTypeInfo
    private let indexByName: [String: Int32]

    init(
        _ structure: ChainStructure<Member>,
        recorder: Recorder,
        command: CommandTypeInfo,
        hopLimit: Int?,
        boxOf: (Member) -> AnyObject
    ) {
        func box(_ member: Member) -> UnsafeRawPointer {
            UnretainedObject(boxOf(member)).pointer
        }
        let order = structure.order
        var indexByName: [String: Int32] = [:]
        for (index, name) in order.enumerated() { indexByName[name] = Int32(index) }
        var names = order
        var nodes: ContiguousArray<Node> = []
        var registries: [[RegisteredMember]] = []
        for name in order {
            let node = structure.nodes[name]!  // `order` and `nodes` hold the same names
            let next = node.next.flatMap { indexByName[$0] } ?? -1
            if let handler = node.handler {
                nodes.append(Node(handler: handler, next: next, registry: -1, box: box(handler)))
                continue
            }
            var members: [RegisteredMember] = []
            for member in node.members {
                members.append(
                    RegisteredMember(handler: member.member, name: Int32(names.count), box: box(member.member))
                )
                names.append(member.member.name)
            }
            nodes.append(Node(handler: nil, next: next, registry: Int32(registries.count), box: nil))
            registries.append(members)
        }
        self.chainName = structure.chainName
        self.version = structure.version
        self.names = HandlerNameTable(chain: structure.chainName, commandType: command.typeName, names: names)
        self.nodes = nodes
        self.registries = registries
        self.head = structure.head.flatMap { indexByName[$0] } ?? -1
        self.hopLimit = hopLimit ?? max(1, nodes.count)
        self.recorder = Recorder(configuration: recorder.configuration?.copyForChain())
        self.command = command
        self.indexByName = indexByName
    }

    /// The node to start at: the named one, or the head.
    @usableFromInline
    func entryIndex(_ entry: String?) throws(ChainError) -> Int32 {
        guard let entry else {
            if head < 0 { throw .noEntry(in: chainName) }
            return head
        }
        guard let index = indexByName[entry] else { throw unknownEntry(entry) }
        return index
    }

    /// Why `entry` is no entry: a registry's member, or no handler at all. Out of line: in `entryIndex`, the
    /// search made every send look up generic metadata (~170 instructions), though it only runs for a bad entry.
    @inline(never)
    private func unknownEntry(_ entry: String) -> ChainError {
        for (index, node) in nodes.enumerated() where node.registry >= 0 {
            if registries[Int(node.registry)].contains(where: { names.names[Int($0.name)] == entry }) {
                return .registryMember(entry, of: names.names[index], in: chainName)
            }
        }
        return .unknownHandler(entry, in: chainName, known: Array(names.names.prefix(nodes.count)))
    }

    /// The error for a walk that reached the hop limit at `index`, after `hops`: names the circle the walk is
    /// caught in — or, when the path from `index` ends without one, says that the limit is below the path's length
    /// (a `maximumHops` set lower than a path), not that it loops.
    @usableFromInline
    func loopError(at index: Int32, hops: Int) -> ChainError {
        var seen: [Int32: Int] = [:]
        var route: [Int32] = []
        var current = index
        while current >= 0, seen[current] == nil {
            seen[current] = route.count
            route.append(current)
            current = nodes[Int(current)].next
        }
        guard current >= 0, let start = seen[current] else {
            return .hopLimit(
                at: names.names[Int(index)],
                in: chainName,
                hops: hops,
                limit: hopLimit,
                needed: hops.addingReportingOverflow(route.count).partialValue,
                registriesCountOnce: !registries.isEmpty
            )
        }
        return .loop(
            route[start...].map { names.names[Int($0)] },
            in: chainName,
            afterHops: hops,
            registriesCountOnce: !registries.isEmpty
        )
    }
}
