/// The editable shape of a chain: named nodes, each a handler or a registry, linked by `next`.
///
/// A plain chain is nodes linked in a line from the head; a responder tree is many nodes sharing parents, any of
/// which can be an entry. Every edit increases `version`. Edits never check for loops — a chain relinked into a
/// circle is stopped at run time by the hop limit — but they do refuse unknown and duplicate names.
struct ChainStructure<Member: ChainMember> {
    struct Node {
        var name: String
        var handler: Member?
        var members: [RegistryMember]
        var next: String?
    }

    struct RegistryMember {
        var member: Member
        var weight: Int
    }

    let chainName: String
    private(set) var order: [String] = []
    private(set) var nodes: [String: Node] = [:]
    private(set) var head: String?
    private(set) var version = 0
    private var memberOwners: [String: String] = [:]

    init(name: String) {
        chainName = name
    }

    // MARK: Editing

    mutating func insert(_ handler: Member?, named name: String, at position: ChainPosition) throws(ChainError) {
        try requireNew(name)
        var node = Node(name: name, handler: handler, members: [], next: nil)
        switch position {
        case .first:
            node.next = head
            head = name
        case .last:
            if let tail = try tailOfHead() {
                nodes[tail]?.next = name
            } else {
                head = name
            }
        case .before(let target):
            try requireNode(target)
            node.next = target
            for predecessor in order where nodes[predecessor]?.next == target {
                nodes[predecessor]?.next = name
            }
            if head == target { head = name }
        case .after(let target):
            try requireNode(target)
            node.next = nodes[target]?.next
            nodes[target]?.next = name
        }
        add(node)
    }

    mutating func add(_ handler: Member?, named name: String, next: String?) throws(ChainError) {
        try requireNew(name)
        if let next { try requireNode(next) }
        add(Node(name: name, handler: handler, members: [], next: next))
        if head == nil { head = name }
    }

    mutating func remove(_ name: String) throws(ChainError) {
        guard let node = nodes[name] else { throw unknown(name) }
        for predecessor in order where nodes[predecessor]?.next == name {
            nodes[predecessor]?.next = node.next
        }
        for member in node.members { memberOwners[member.member.name] = nil }
        nodes[name] = nil
        order.removeAll { $0 == name }
        if head == name { head = node.next ?? firstRoot() }
        version += 1
    }

    /// The head after the head was removed and forwarded nowhere (an entry of a tree that was a leaf): the first
    /// node, in the order they came, that no other forwards to — the next entry, as a definition that leaves its
    /// entries out lists them — else the first node. `nil` only when no node is left.
    private func firstRoot() -> String? {
        let targets = Set(nodes.values.compactMap(\.next))
        return order.first { !targets.contains($0) } ?? order.first
    }

    mutating func replace(_ name: String, with handler: Member) throws(ChainError) {
        guard let node = nodes[name], node.handler != nil else {
            throw nodes[name] == nil ? unknown(name) : .wrongKind(name, in: chainName, expected: "a handler")
        }
        if handler.name != name { try requireNew(handler.name) }
        var replacement = node
        replacement.name = handler.name
        replacement.handler = handler
        nodes[name] = nil
        nodes[handler.name] = replacement
        order = order.map { $0 == name ? handler.name : $0 }
        for predecessor in order where nodes[predecessor]?.next == name {
            nodes[predecessor]?.next = handler.name
        }
        if head == name { head = handler.name }
        version += 1
    }

    mutating func link(_ name: String, to next: String?) throws(ChainError) {
        try requireNode(name)
        if let next { try requireNode(next) }
        nodes[name]?.next = next
        version += 1
    }

    mutating func register(_ member: Member, weight: Int, in registry: String) throws(ChainError) {
        try requireRegistry(registry)
        try requireNew(member.name)
        // Newest first among equal weights: ahead of the first member that weighs no more, as arranging the new
        // member followed by the others (RegistryOrder) would place it — without sorting them all again for each
        // member, which made a registry of thousands quadratic and more to build.
        // `requireRegistry` found the node.
        let place = nodes[registry]!.members.firstIndex { $0.weight <= weight } ?? nodes[registry]!.members.count
        nodes[registry]!.members.insert(RegistryMember(member: member, weight: weight), at: place)
        memberOwners[member.name] = registry
        version += 1
    }

    mutating func deregister(_ name: String, from registry: String) throws(ChainError) -> Bool {
        try requireRegistry(registry)
        guard memberOwners[name] == registry else { return false }
        nodes[registry]?.members.removeAll { $0.member.name == name }
        memberOwners[name] = nil
        version += 1
        return true
    }

    // MARK: Reading

    func members(of registry: String) throws(ChainError) -> [(name: String, weight: Int)] {
        try requireRegistry(registry)
        return nodes[registry]?.members.map { ($0.member.name, $0.weight) } ?? []
    }

    /// The names along the path from the head (or `entry`), stopping before any repeat.
    func path(from entry: String? = nil) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        var current = entry ?? head
        while let name = current, let node = nodes[name], seen.insert(name).inserted {
            result.append(name)
            current = node.next
        }
        return result
    }

    // MARK: Helpers

    private mutating func add(_ node: Node) {
        nodes[node.name] = node
        order.append(node.name)
        version += 1
    }

    private func tailOfHead() throws(ChainError) -> String? {
        guard var current = head else { return nil }
        var steps = 0
        while let next = nodes[current]?.next {
            steps += 1
            if steps > nodes.count { throw .loop(path(), in: chainName, afterHops: steps) }
            current = next
        }
        return current
    }

    private func requireNew(_ name: String) throws(ChainError) {
        if nodes[name] != nil || memberOwners[name] != nil { throw .duplicateName(name, in: chainName) }
    }

    private func requireNode(_ name: String) throws(ChainError) {
        if nodes[name] == nil { throw unknown(name) }
    }

    private func requireRegistry(_ name: String) throws(ChainError) {
        guard let node = nodes[name] else { throw unknown(name) }
        if node.handler != nil { throw .wrongKind(name, in: chainName, expected: "a registry") }
    }

    private func unknown(_ name: String) -> ChainError {
        if let registry = memberOwners[name] { return .registryMember(name, of: registry, in: chainName) }
        return .unknownHandler(name, in: chainName, known: order)
    }
}
