public import ChainTrace
public import ChainTraceAnalysis
public import ChainTraceDefinitions

/// The shape a diagram draws: every handler (registry members included), the links between them and the
/// entries — read from a chain definition, inferred from a trace log, or both.
///
/// ```swift
/// var graph = ChainGraph(definition: try ChainDefinition.load(path: "chain.json"))
/// graph.addObserved(profile)   // handlers and links the log shows but the definition lacks
/// ```
public struct ChainGraph: Sendable, Hashable {
    /// One handler.
    public struct Handler: Sendable, Hashable {
        /// Its unique name.
        public var name: String
        /// Responder (stops the chain when it accepts) or observer (always continues).
        public var role: HandlerRole
        /// The registry it is a member of, if any.
        public var registry: String?
        /// Its weight in that registry; `nil` when unknown (inferred from a log).
        public var weight: Int?
        /// Its self-time budget, in nanoseconds.
        public var budgetNanoseconds: Int64?
        /// `true` for a handler a log shows but the definition does not have.
        public var isObservedOnly: Bool
        /// `true` for the registry itself: the hop that hands a command to its members (``registry`` is its name).
        public var isRegistry: Bool

        /// Creates a handler.
        public init(
            name: String,
            role: HandlerRole = .responder,
            registry: String? = nil,
            weight: Int? = nil,
            budgetNanoseconds: Int64? = nil,
            isObservedOnly: Bool = false,
            isRegistry: Bool = false
        ) {
            self.name = name
            self.isRegistry = isRegistry
            self.role = role
            self.registry = registry
            self.weight = weight
            self.budgetNanoseconds = budgetNanoseconds
            self.isObservedOnly = isObservedOnly
        }
    }

    /// A link a command can go along, from one handler to the next.
    public struct Link: Sendable, Hashable {
        /// Where it comes from.
        public var from: String
        /// Where it goes.
        public var to: String
        /// `true` for a link a log shows but the definition does not have.
        public var isObservedOnly: Bool

        /// Creates a link.
        public init(from: String, to: String, isObservedOnly: Bool = false) {
            self.from = from
            self.to = to
            self.isObservedOnly = isObservedOnly
        }
    }

    /// The chain's name.
    public var name: String
    /// Every handler, in chain order; registry members in weight order, highest first.
    public var handlers: [Handler]
    /// The links, in chain order.
    public var links: [Link]
    /// The handlers commands may enter at, the default first.
    public var entries: [String]
    /// The registries, in chain order, each with itself then its members in the order they are asked.
    public var registries: [(name: String, members: [String])] {
        var result: [(name: String, members: [String])] = []
        for handler in handlers {
            guard let registry = handler.registry else { continue }
            if let index = result.firstIndex(where: { $0.name == registry }) {
                result[index].members.append(handler.name)
            } else {
                result.append((registry, [handler.name]))
            }
        }
        return result
    }

    /// Creates a graph from its parts.
    public init(name: String, handlers: [Handler], links: [Link], entries: [String]) {
        self.name = name
        self.handlers = handlers
        self.links = links
        self.entries = entries
    }

    /// The structure a chain definition describes. A registry is drawn as itself (the hop that hands a command
    /// on to its members) followed by its members, asked in weight order, then its `next`.
    public init(definition: ChainDefinition) {
        var handlers: [Handler] = []
        var links: [Link] = []
        var lastOf: [String: String] = [:]
        for definition in definition.handlers {
            guard definition.isRegistry else {
                handlers.append(
                    Handler(name: definition.name, role: definition.role, budgetNanoseconds: definition.budget)
                )
                continue
            }
            let members = RegistryOrder.arranged(definition.members ?? [], weight: \.weight)
            handlers.append(
                Handler(
                    name: definition.name,
                    role: definition.role,
                    registry: definition.name,
                    budgetNanoseconds: definition.budget,
                    isRegistry: true
                )
            )
            for member in members {
                handlers.append(
                    Handler(
                        name: member.name,
                        role: member.role,
                        registry: definition.name,
                        weight: member.weight,
                        budgetNanoseconds: member.budget
                    )
                )
            }
            let order = [definition.name] + members.map(\.name)
            for (first, second) in zip(order, order.dropFirst()) { links.append(Link(from: first, to: second)) }
            lastOf[definition.name] = order.last
        }
        for handler in definition.handlers {
            guard let next = handler.next else { continue }
            links.append(Link(from: lastOf[handler.name] ?? handler.name, to: next))
        }
        self.init(name: definition.name, handlers: handlers, links: links, entries: definition.entries)
    }

    /// The structure a profile shows: handlers in chain order (`ChainProfile/handlers`), links commands went
    /// along, entries where commands arrived. Roles are not guessed (a pipeline stage continues too), so all are
    /// drawn as handlers.
    public init(profile: ChainProfile) {
        self.init(name: profile.chains.joined(separator: ", "), handlers: [], links: [], entries: [])
        addObserved(profile)
    }

    /// Adds the handlers, links and entries `profile` shows that the graph lacks, marked as observed only
    /// (unless the graph was empty, as when it is inferred from the log alone).
    public mutating func addObserved(_ profile: ChainProfile) {
        let inferred = handlers.isEmpty
        let registryNames = Set(profile.handlers.compactMap(\.registry))
        let seen = profile.handlers.filter { $0.seen > 0 }.map { statistics in
            let isRegistry = registryNames.contains(statistics.handler)
            return Handler(
                name: statistics.handler,
                registry: isRegistry ? statistics.handler : statistics.registry,
                budgetNanoseconds: statistics.budgetNanoseconds,
                isObservedOnly: !inferred,
                isRegistry: isRegistry
            )
        }
        let order = Dictionary(
            (handlers + seen).enumerated().map { ($1.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        var newLinks: [Link] = []
        // A set beside the list: a log of thousands of entries (handlers named per instance) made this quadratic.
        var entered = Set(entries)
        // Each edge's place worked out once, not in every comparison (two lookups by name a side): sorting the
        // 250 000 edges of a log of 50 000 handler names took 2.1 s so, 0.2 s with the places made first.
        let placed = profile.edges.keys.map { edge in
            (edge: edge, from: edge.from.map { order[$0] ?? Int.max } ?? -1, to: order[edge.to] ?? Int.max)
        }
        let sorted = placed.sorted { left, right in
            if (left.from, left.to) != (right.from, right.to) { return (left.from, left.to) < (right.from, right.to) }
            return (left.edge.from ?? "", left.edge.to) < (right.edge.from ?? "", right.edge.to)
        }
        for edge in sorted.map(\.edge) {
            if let from = edge.from {
                newLinks.append(Link(from: from, to: edge.to, isObservedOnly: !inferred))
            } else if entered.insert(edge.to).inserted {
                entries.append(edge.to)
            }
        }
        merge(seen, newLinks)
        if inferred { handlers = Self.groupingRegistries(handlers) }
    }

    /// Adds the handlers and links one trace went along that the graph lacks, marked as observed only.
    public mutating func addObserved(_ trace: Trace) {
        let registryNames = Set(trace.hops.compactMap(\.registry))
        let visited = trace.hops.map { hop in
            let isRegistry = registryNames.contains(hop.handler)
            return Handler(
                name: hop.handler,
                registry: isRegistry ? hop.handler : hop.registry,
                isObservedOnly: true,
                isRegistry: isRegistry
            )
        }
        let hops = trace.hops
        let steps = zip(hops.indices, trace.hopSources).dropFirst().map { index, source in
            Link(from: hops[source].handler, to: hops[index].handler, isObservedOnly: true)
        }
        merge(visited, steps)
        if let first = trace.hops.first?.handler, !entries.contains(first) { entries.append(first) }
    }

    /// The handler with this name.
    public func handler(named name: String) -> Handler? { handlers.first { $0.name == name } }

    /// Appends what `handlers` and `links` lack (by name, and by the pair of names), in order.
    private mutating func merge(_ newHandlers: [Handler], _ newLinks: [Link]) {
        var names = Set(handlers.map(\.name))
        for handler in newHandlers where names.insert(handler.name).inserted { handlers.append(handler) }
        var pairs = Set(links.map { [$0.from, $0.to] })
        for link in newLinks where pairs.insert([link.from, link.to]).inserted { links.append(link) }
    }

    /// Keeps a registry's members together, where its first member was met: the registry first, then its members in
    /// the order they came. (Names are unique, as ``merge(_:_:)`` keeps them; found by set and by group rather than
    /// by searching what is placed, which was quadratic in the handlers.)
    static func groupingRegistries(_ handlers: [Handler]) -> [Handler] {
        let groups = Dictionary(grouping: handlers.filter { $0.registry != nil }, by: { $0.registry! })
        var result: [Handler] = []
        var placed: Set<String> = []
        for handler in handlers where !placed.contains(handler.name) {
            if let registry = handler.registry, let group = groups[registry] {
                let left = group.filter { !placed.contains($0.name) }
                for member in left.filter(\.isRegistry) + left.filter({ !$0.isRegistry })
                where placed.insert(member.name).inserted {
                    result.append(member)
                }
            } else {
                placed.insert(handler.name)
                result.append(handler)
            }
        }
        return result
    }
}
