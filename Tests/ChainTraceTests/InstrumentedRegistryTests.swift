import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// A registry the app already has — a handler holding late responders it asks in weight order before the command
/// goes on — instrumented with `traceHop` and `traceRegistryMembers`, records what the same handlers record as a
/// ``Chain`` with a ``Registry``: the same path, decisions, registries, parents and outcome, for generated chains,
/// members, weights (ties too) and commands, sync and async.
@Suite("Registries of chains users already have", .tags(.concurrent))
struct InstrumentedRegistryTests {
    /// One handler of a generated chain: a responder, or a registry of members, each taking the commands that are
    /// multiples of its divisor.
    struct Spec {
        var name: String
        var divisor: Int
        /// For a registry: its members in the order they registered, with their weights and divisors.
        var members: [(name: String, weight: Int, divisor: Int)]?
    }

    /// A handler of an existing `next`-linked chain: a responder, or a registry asking its members first.
    final class Node: Sendable {
        let spec: Spec
        let next: Node?
        let chain: String

        init(_ spec: Spec, next: Node?, chain: String) {
            (self.spec, self.next, self.chain) = (spec, next, chain)
        }

        /// The members in the order a registry asks them: highest weight first, equal weights newest first.
        var ordered: [(name: String, weight: Int, divisor: Int)] {
            (spec.members ?? []).enumerated().sorted { ($0.element.weight, $0.offset) > ($1.element.weight, $1.offset) }
                .map(\.element)
        }

        static func member(_ member: (name: String, weight: Int, divisor: Int), _ value: Int, chain: String) -> String?
        {
            traceHop(member.name, command: value, chain: chain) { value % member.divisor == 0 ? member.name : nil }
        }

        static func member(_ member: (name: String, weight: Int, divisor: Int), _ value: Int, chain: String) async
            -> String?
        {
            await traceHop(member.name, command: value, chain: chain) {
                await Task.yield()
                return value % member.divisor == 0 ? member.name : nil
            }
        }

        func handle(_ value: Int) -> String? {
            traceHop(spec.name, command: value, chain: chain) {
                if spec.members != nil {
                    let taken: String? = traceRegistryMembers {
                        for member in ordered {
                            if let taken = Self.member(member, value, chain: chain) { return taken }
                        }
                        return nil
                    }
                    if let taken { return taken }
                } else if value % spec.divisor == 0 {
                    return spec.name
                }
                return next?.handle(value)
            }
        }

        func handle(_ value: Int) async -> String? {
            await traceHop(spec.name, command: value, chain: chain) {
                if spec.members != nil {
                    let taken: String? = await traceRegistryMembers {
                        for member in ordered {
                            if let taken = await Self.member(member, value, chain: chain) { return taken }
                        }
                        return nil
                    }
                    if let taken { return taken }
                } else if value % spec.divisor == 0 {
                    return spec.name
                }
                return await next?.handle(value)
            }
        }
    }

    static func specs(_ random: inout SeededGenerator) -> [Spec] {
        var count = 0
        func name(_ prefix: String) -> String {
            count += 1
            return "\(prefix)\(count)"
        }
        return (0..<Int.random(in: 1...5, using: &random)).map { _ in
            guard random.chance(0.4) else {
                return Spec(name: name("H"), divisor: Int.random(in: 2...9, using: &random))
            }
            let members = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                (
                    name: name("M"), weight: Int.random(in: 0...3, using: &random),
                    divisor: Int.random(in: 2...11, using: &random)
                )
            }
            return Spec(name: name("R"), divisor: 1, members: members)
        }
    }

    /// The same handlers as a `Chain`: responders, and registries with their members registered in order.
    static func chain(_ specs: [Spec], name: String, sink: InMemoryTraceSink) throws -> Chain<Int, String> {
        let responders = specs.filter { $0.members == nil }.map { spec in
            Handler<Int, String>(spec.name) { $0 % spec.divisor == 0 ? .accept(spec.name) : .pass }
        }
        let chain = try Chain<Int, String>(
            name,
            handlers: responders,
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        for (index, spec) in specs.enumerated() {
            guard let members = spec.members else { continue }
            // Before the first responder that comes after it, or last.
            let place: ChainPosition =
                specs[(index + 1)...].first { $0.members == nil }.map { .before($0.name) } ?? .last
            let registry = try chain.addRegistry(spec.name, at: place)
            for member in members {
                try registry.register(
                    Handler(member.name) { $0 % member.divisor == 0 ? .accept(member.name) : .pass },
                    weight: member.weight
                )
            }
        }
        return chain
    }

    static func linked(_ specs: [Spec], chain: String) -> Node {
        var next: Node?
        for spec in specs.reversed() { next = Node(spec, next: next, chain: chain) }
        return next!
    }

    static func expectSame(_ instrumented: Trace, _ modelled: Trace, _ context: String) {
        #expect(instrumented.path == modelled.path, "\(context)")
        #expect(instrumented.hops.map(\.decision) == modelled.hops.map(\.decision), "\(context): \(instrumented.path)")
        #expect(instrumented.hops.map(\.registry) == modelled.hops.map(\.registry), "\(context): \(instrumented.path)")
        // A member runs inside its registry's hop in both. (The other hops differ by design: a `Chain` walks its
        // handlers in turn, while a `next`-linked handler runs inside the one that called it.)
        func memberParents(_ trace: Trace) -> [Int?] { trace.hops.map { $0.registry == nil ? nil : $0.parent } }
        #expect(memberParents(instrumented) == memberParents(modelled), "\(context): \(instrumented.path)")
        #expect(instrumented.outcome == modelled.outcome, "\(context)")
    }

    /// A generated chain of `seed` twice — instrumented, and as a `Chain` recording into `sink` — and `count`
    /// commands for them.
    static func generated(seed: UInt64, name: String, count: Int) throws -> (
        head: Node, chain: Chain<Int, String>, sink: InMemoryTraceSink, values: [Int]
    ) {
        var random = SeededGenerator(seed: seed)
        let specs = Self.specs(&random)
        let sink = InMemoryTraceSink()
        let chain = try Self.chain(specs, name: name, sink: sink)
        let values = (0..<count).map { _ in Int.random(in: 1...200, using: &random) }
        return (Self.linked(specs, chain: name), chain, sink, values)
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func membersAreRecordedAsAChainsRegistryRecordsThem(seed: UInt64) throws {
        let (head, chain, sink, values) = try Self.generated(seed: seed, name: "registry-\(seed)", count: 30)
        let traces = captureTraces(payloads: .captured) {
            for value in values { _ = head.handle(value) }
        }
        for value in values { _ = try chain.send(value) }
        try #require(traces.count == values.count && sink.traces.count == values.count, "seed \(seed)")
        for (index, value) in values.enumerated() {
            Self.expectSame(traces[index], sink.traces[index], "seed \(seed), \(value)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func asyncMembersAreRecordedAsAChainsRegistryRecordsThem(seed: UInt64) async throws {
        let (head, chain, sink, values) = try Self.generated(seed: seed, name: "async-registry-\(seed)", count: 20)
        // Sent at once: each trace is matched to its command by the payload.
        let traces = await captureTraces(payloads: .captured) {
            await withTaskGroup(of: Void.self) { group in
                for value in values { group.addTask { _ = await head.handle(value) } }
            }
        }
        try #require(traces.count == values.count, "seed \(seed)")
        for trace in traces {
            guard case .integer(let value)? = trace.payload else {
                Issue.record("seed \(seed): a trace without its command")
                continue
            }
            _ = try chain.send(Int(value))
            Self.expectSame(trace, sink.traces[sink.traces.count - 1], "seed \(seed), \(value)")
        }
    }

    /// A late responder of a registry whose internal chain is linked, as in a responder chain: each member takes
    /// the command or calls the next member, and marks itself as its registry's.
    final class LinkedMember: Sendable {
        let name: String
        let divisor: Int
        let registry: String
        let next: LinkedMember?
        let chain: String

        init(name: String, divisor: Int, registry: String, next: LinkedMember?, chain: String) {
            (self.name, self.divisor, self.registry, self.next, self.chain) = (name, divisor, registry, next, chain)
        }

        func handle(_ value: Int) -> String? {
            traceHop(name, command: value, chain: chain) {
                ChainTracing.markMember(of: registry)
                return value % divisor == 0 ? name : next?.handle(value)
            }
        }
    }

    /// The generated chain with each registry's members linked in the order it asks them.
    final class LinkedNode: Sendable {
        let spec: Spec
        let first: LinkedMember?
        let next: LinkedNode?
        let chain: String

        init(_ spec: Spec, next: LinkedNode?, chain: String) {
            (self.spec, self.next, self.chain) = (spec, next, chain)
            var member: LinkedMember?
            for ordered in Node(spec, next: nil, chain: chain).ordered.reversed() {
                member = LinkedMember(
                    name: ordered.name,
                    divisor: ordered.divisor,
                    registry: spec.name,
                    next: member,
                    chain: chain
                )
            }
            first = member
        }

        func handle(_ value: Int) -> String? {
            traceHop(spec.name, command: value, chain: chain) {
                if spec.members != nil {
                    if let taken = first?.handle(value) { return taken }
                } else if value % spec.divisor == 0 {
                    return spec.name
                }
                return next?.handle(value)
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func linkedMembersThatMarkThemselvesAreRecordedAsAChainsRegistryRecordsThem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let specs = Self.specs(&random)
        let name = "linked-registry-\(seed)"
        let sink = InMemoryTraceSink()
        let chain = try Self.chain(specs, name: name, sink: sink)
        var head: LinkedNode?
        for spec in specs.reversed() { head = LinkedNode(spec, next: head, chain: name) }
        let values = (0..<30).map { _ in Int.random(in: 1...200, using: &random) }
        let traces = captureTraces(payloads: .captured) {
            for value in values { _ = head!.handle(value) }
        }
        for value in values { _ = try chain.send(value) }
        try #require(traces.count == values.count && sink.traces.count == values.count, "seed \(seed)")
        for (index, value) in values.enumerated() {
            let (instrumented, modelled) = (traces[index], sink.traces[index])
            // Each member runs inside the one before it here, and beside it in a `Chain`: parents differ by design.
            #expect(instrumented.path == modelled.path, "seed \(seed), \(value)")
            #expect(instrumented.hops.map(\.decision) == modelled.hops.map(\.decision), "seed \(seed), \(value)")
            #expect(instrumented.hops.map(\.registry) == modelled.hops.map(\.registry), "seed \(seed), \(value)")
            #expect(instrumented.outcome == modelled.outcome, "seed \(seed), \(value)")
        }
    }

    /// A proxy member forwarding to a responder elsewhere in the app stays the member, and the responder does not
    /// become one; a registry name no enclosing hop has marks nothing, and outside a traced hop nothing is marked.
    @Test func aMemberMarksOnlyItselfAndOnlyUnderItsRegistry() throws {
        func list(_ value: Int) -> Int? { traceHop("ListController", command: value, chain: "c") { value } }
        func proxy(_ value: Int, registry: String) -> Int? {
            traceHop("ListProxy", command: value, chain: "c") {
                #expect(ChainTracing.markMember(of: registry) == (registry == "Window"))
                return list(value)
            }
        }
        func window(_ value: Int, registry: String) -> Int? {
            traceHop("Window", command: value, chain: "c") { proxy(value, registry: registry) }
        }
        #expect(!ChainTracing.markMember(of: "Window"))
        let traces = captureTraces(payloads: .captured) {
            _ = window(1, registry: "Window")
            _ = window(2, registry: "Windw")
        }
        try #require(traces.count == 2)
        #expect(traces[0].hops.map(\.registry) == [nil, "Window", nil])
        #expect(traces[1].hops.map(\.registry) == [nil, nil, nil])
        expectHandled(traces[0], by: "ListController")
    }

    /// As `aMemberMarksOnlyItselfAndOnlyUnderItsRegistry`, in an async chain run from several tasks at once.
    @Test func anAsyncMemberMarksItselfUnderItsRegistry() async throws {
        func list(_ value: Int) async -> Int? {
            await traceHop("ListController", command: value, chain: "c") {
                await Task.yield()
                return value
            }
        }
        func proxy(_ value: Int) async -> Int? {
            await traceHop("ListProxy", command: value, chain: "c") {
                ChainTracing.markMember(of: value.isMultiple(of: 2) ? "Window" : "Windw")
                return await list(value)
            }
        }
        func window(_ value: Int) async -> Int? {
            await traceHop("Window", command: value, chain: "c") { await proxy(value) }
        }
        let traces = await captureTraces(payloads: .captured) {
            await withTaskGroup(of: Void.self) { group in
                for value in 1...20 { group.addTask { _ = await window(value) } }
            }
        }
        try #require(traces.count == 20)
        for trace in traces {
            guard case .integer(let value)? = trace.payload else {
                Issue.record("a trace without its command")
                continue
            }
            #expect(trace.hops.map(\.registry) == [nil, value.isMultiple(of: 2) ? "Window" : nil, nil], "\(value)")
        }
    }

    /// Only hops opened directly inside the registry's hop are its members: what a member calls keeps its own
    /// place, the handler the command goes on to is none, and outside a traced hop the call just runs its body.
    @Test func onlyTheHopsTheRegistryAsksAreItsMembers() throws {
        func inner(_ value: Int) -> Int? { traceHop("Inner", command: value, chain: "c") { nil } }
        func member(_ value: Int) -> Int? { traceHop("Member", command: value, chain: "c") { inner(value) } }
        func after(_ value: Int) -> Int? { traceHop("After", command: value, chain: "c") { value } }
        func registry(_ value: Int) -> Int? {
            traceHop("Late", command: value, chain: "c") { traceRegistryMembers { member(value) } ?? after(value) }
        }
        #expect(traceRegistryMembers { 7 } == 7)
        let traces = captureTraces(payloads: .captured) { _ = registry(1) }
        try #require(traces.count == 1)
        expectPath(traces[0], ["Late", "Member", "Inner", "After"])
        #expect(traces[0].hops.map(\.registry) == [nil, "Late", nil, nil])
        expectHandled(traces[0], by: "After")
    }
}
