import ChainTrace
import ChainTraceTestSupport
import Testing

/// A finished async instrumented trace is kept for the next one its thread starts, but only when nothing else
/// holds it: a task started inside the command (not a child: an unstructured `Task`) keeps the trace's task-local,
/// and a hop it runs later joins that command's trace — never the next command's.
@Suite("Async traces reused only when nothing holds them", .tags(.concurrent))
struct AsyncTraceRecyclingTests {
    struct Sent: Sendable, TracedCommand {
        let number: Int
        var commandID: String? { "\(number)" }
    }

    @Test func aHopLeftRunningInAnUnstructuredTaskNeverJoinsALaterCommandsTrace() async throws {
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink)
        for round in 0..<20 {
            let (lateGate, openLate) = AsyncStream.makeStream(of: Void.self)
            let (lateDone, finishLate) = AsyncStream.makeStream(of: Void.self)
            let late = await ChainTracing.withRecorder(recorder) { () async -> Task<Void, Never> in
                let task = await traceHop("First", command: Sent(number: round), chain: "asynctracerecycling") {
                    () async -> Task<Void, Never> in
                    // Inherits the task-local that names the first command's trace, and outlives its hop.
                    Task {
                        for await _ in lateGate { break }
                        _ = await traceHop("Late", command: Sent(number: round), chain: "asynctracerecycling") {
                            () async -> Int in 0
                        }
                        finishLate.yield()
                        finishLate.finish()
                    }
                }
                // The next command, in the same task: its trace is started while the late hop is still to run.
                _ = await traceHop("Second", command: Sent(number: round), chain: "asynctracerecycling") {
                    () async -> Int in
                    openLate.yield()
                    openLate.finish()
                    for await _ in lateDone { break }
                    return 1
                }
                return task
            }
            await late.value
        }
        // The late hop starts after the first command's trace was delivered: a trace of its own, neither lost nor
        // in the second command's.
        let paths = sink.traces.map(\.path)
        #expect(paths.count == 60, "\(paths)")
        #expect(paths.filter { $0 == ["First"] }.count == 20, "\(paths)")
        #expect(paths.filter { $0 == ["Second"] }.count == 20, "\(paths)")
        #expect(paths.filter { $0 == ["Late"] }.count == 20, "\(paths)")
    }

    /// Hops that start, in a task that outlived the command, after its trace was delivered — async or synchronous,
    /// nested or not, any number of them — each start a trace of their own, with their own decisions; before, they
    /// were added to the delivered trace and lost. Generated: how many tasks, how many hops each, how deep, which
    /// are synchronous or observers.
    @Test(arguments: SeededGenerator.seeds(12))
    func hopsStartedAfterTheirTraceWasDeliveredAreTracesOfTheirOwn(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        struct Plan: Sendable {
            var depth: Int
            var synchronous: Bool
            var observer: Bool
        }
        let plans: [[Plan]] = (0..<Int.random(in: 1...4, using: &random)).map { _ in
            (0..<Int.random(in: 1...3, using: &random)).map { _ in
                Plan(
                    depth: Int.random(in: 1...3, using: &random),
                    synchronous: Bool.random(using: &random),
                    observer: Bool.random(using: &random)
                )
            }
        }
        @Sendable func late(_ name: String, depth: Int, plan: Plan) async -> Int {
            let role: HandlerRole = plan.observer ? .observer : .responder
            if plan.synchronous {
                func step(_ level: Int) -> Int? {
                    traceHop(
                        "\(name).\(level)",
                        command: Sent(number: 0),
                        chain: "asynctracerecycling",
                        role: level == 0 ? role : .responder
                    ) {
                        level + 1 < depth ? step(level + 1) : level
                    }
                }
                return step(0) ?? -1
            }
            func step(_ level: Int) async -> Int? {
                await traceHop(
                    "\(name).\(level)",
                    command: Sent(number: 0),
                    chain: "asynctracerecycling",
                    role: level == 0 ? role : .responder
                ) {
                    level + 1 < depth ? await step(level + 1) : level
                }
            }
            return await step(0) ?? -1
        }
        let sink = InMemoryTraceSink()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let tasks = await ChainTracing.withRecorder(Recorder(sink: sink)) { () async -> [Task<Void, Never>] in
            let tasks = await traceHop("Command", command: Sent(number: 0), chain: "asynctracerecycling") {
                () async -> [Task<Void, Never>] in
                plans.enumerated().map { index, hops in
                    Task {
                        for await _ in gate { break }
                        for (hop, plan) in hops.enumerated() {
                            _ = await late("T\(index)H\(hop)", depth: plan.depth, plan: plan)
                        }
                    }
                }
            }
            // The command's trace is delivered; now the tasks run their hops (inside the recorder's scope).
            open.yield()
            open.finish()
            for task in tasks { await task.value }
            return tasks
        }
        _ = tasks
        let traces = sink.traces
        let expected = plans.enumerated().flatMap { index, hops in
            hops.enumerated().map { hop, plan in (index, hop, plan) }
        }
        #expect(traces.count == 1 + expected.count, "seed \(seed): \(traces.map(\.path))")
        #expect(traces.filter { $0.path == ["Command"] }.count == 1, "seed \(seed)")
        for (index, hop, plan) in expected {
            let name = "T\(index)H\(hop)"
            let path = (0..<plan.depth).map { "\(name).\($0)" }
            let trace = traces.first { $0.path.first == path.first }
            #expect(trace?.path == path, "seed \(seed): \(name)")
            var decisions = [Decision](repeating: .passed, count: plan.depth)
            decisions[plan.depth - 1] = .accepted
            if plan.observer { decisions[0] = .continued }
            #expect(trace?.hops.map(\.decision) == decisions, "seed \(seed): \(name)")
        }
    }

    /// Hops still open when their trace is delivered — begun by a task that outlives the command, one inside the
    /// other — are delivered as they were opened: no time, and in no registry (an open hop's record names the hop
    /// it is nested in).
    @Test func aHopStillOpenWhenItsTraceIsDeliveredHasNoRegistryOrTime() async throws {
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink)
        let (begun, noteBegun) = AsyncStream.makeStream(of: Void.self)
        let (release, letGo) = AsyncStream.makeStream(of: Void.self)
        let late = await ChainTracing.withRecorder(recorder) { () async -> Task<Void, Never> in
            await traceHop("First", command: Sent(number: 0), chain: "asynctracerecycling") {
                () async -> Task<Void, Never> in
                let task = Task {
                    _ = await traceHop("Late", command: Sent(number: 0), chain: "asynctracerecycling") {
                        () async -> Int in
                        await traceHop("Later", command: Sent(number: 0), chain: "asynctracerecycling") {
                            () async -> Int in
                            noteBegun.yield()
                            noteBegun.finish()
                            for await _ in release { break }
                            return 0
                        }
                    }
                }
                for await _ in begun { break }
                return task
            }
        }
        let traces = sink.traces
        letGo.yield()
        letGo.finish()
        await late.value
        let trace = try #require(traces.first)
        #expect(traces.count == 1)
        #expect(trace.path == ["First", "Late", "Later"])
        #expect(trace.hops.allSatisfy { $0.registry == nil }, "\(trace.hops.map(\.registry))")
        // Two of the three are still open as the trace is delivered (the first hop's end closed the innermost
        // one): an open hop has no time at all.
        #expect(trace.hops.filter { $0.inclusiveDuration == 0 && $0.selfDuration == 0 }.count >= 1)
        #expect(trace.hops.allSatisfy { $0.selfDuration <= $0.inclusiveDuration })
    }

    /// Many commands through an async instrumented chain, each with child tasks adding hops: every trace has its
    /// own command's hops and no other's, whichever trace object it reused.
    @Test func reusedTracesCarryOnlyTheirOwnCommandsHops() async throws {
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink)
        await ChainTracing.withRecorder(recorder) {
            for number in 0..<200 {
                _ = await traceHop("Outer", command: Sent(number: number), chain: "asynctracerecycling") {
                    () async -> Int in
                    await withTaskGroup(of: Int.self) { group in
                        for child in 0..<(number % 3) {
                            group.addTask {
                                await traceHop(
                                    "Child\(child)",
                                    command: Sent(number: number),
                                    chain: "asynctracerecycling"
                                ) { () async -> Int in child }
                            }
                        }
                        return await group.reduce(0, +)
                    }
                }
            }
        }
        let traces = sink.traces
        #expect(traces.count == 200)
        #expect(Set(traces.compactMap(\.commandID)) == Set((0..<200).map { "\($0)" }))
        for trace in traces {
            let number = try #require(trace.commandID.flatMap { Int($0) })
            #expect(trace.path.first == "Outer")
            #expect(
                Set(trace.path.dropFirst()) == Set((0..<(number % 3)).map { "Child\($0)" }),
                "command \(number): \(trace.path)"
            )
        }
    }

    /// Child tasks adding hops to one shared trace at once — many of them, each a few hops deep, on every thread
    /// of the pool, so that the trace's lock is contended — some with a synchronous hop inside, some (one hop deep)
    /// starting children of their own, some deciding for themselves: every hop arrives once with its own name and the decision its own
    /// nesting gives it (a hop with a hop inside it that did more than continue passed, the innermost accepted or
    /// failed), and times that add
    /// up. Before, the trace kept one "innermost" hop for all tasks: a hop closed whichever hop had opened last,
    /// and a sibling's hop counted as nested. Generated: how many children, how deep, which fail, nest or decide.
    @Test(arguments: SeededGenerator.seeds(8))
    func childTasksAddingHopsAtOnceKeepTheirOwnNesting(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let children = Int.random(in: 4...24, using: &random)
        let depths = (0..<children).map { _ in Int.random(in: 1...4, using: &random) }
        let failing = Set((0..<children).filter { _ in random.chance(0.2) })
        let synchronous = Set((0..<children).filter { !failing.contains($0) && random.chance(0.3) })
        let parents = Set(
            (0..<children).filter {
                depths[$0] == 1 && !failing.contains($0) && !synchronous.contains($0) && random.chance(0.5)
            }
        )
        let deciding = Set(
            (0..<children).filter {
                !failing.contains($0) && !synchronous.contains($0) && !parents.contains($0) && random.chance(0.3)
            }
        )
        struct Failure: Error {}
        let command = Sent(number: Int(seed % 1000))
        /// A child's hops, nested `depth` deep; the innermost fails, runs a synchronous hop, or starts two
        /// children of its own.
        @Sendable func hops(_ child: Int, _ level: Int, _ depth: Int) async -> Int {
            (try? await traceHop("C\(child).\(level)", command: command, chain: "asynctracerecycling") {
                () async throws -> Int in
                if level + 1 < depth { return await hops(child, level + 1, depth) }
                if failing.contains(child) { throw Failure() }
                if synchronous.contains(child) {
                    return traceHop("S\(child)", command: command, chain: "asynctracerecycling") { child }
                }
                if deciding.contains(child) { ChainTracing.decide(.continued, reason: "noted") }
                if parents.contains(child) {
                    return await withTaskGroup(of: Int.self) { group in
                        for grandchild in 0..<2 {
                            group.addTask {
                                await traceHop(
                                    "G\(child).\(grandchild)",
                                    command: command,
                                    chain: "asynctracerecycling"
                                ) { () async -> Int in grandchild }
                            }
                        }
                        return await group.reduce(0, +)
                    }
                }
                return child
            }) ?? -1
        }
        let sink = InMemoryTraceSink()
        await ChainTracing.withRecorder(Recorder(sink: sink)) {
            _ = await traceHop("Outer", command: command, chain: "asynctracerecycling") { () async -> Int in
                await withTaskGroup(of: Int.self) { group in
                    for child in 0..<children {
                        let depth = depths[child]
                        group.addTask { await hops(child, 0, depth) }
                    }
                    return await group.reduce(0, +)
                }
            }
        }
        let trace = try #require(sink.traces.first)
        #expect(sink.traces.count == 1, "seed \(seed)")
        var expected: [String: Decision] = ["Outer": .passed]
        for child in 0..<children {
            for level in 0..<depths[child] { expected["C\(child).\(level)"] = .passed }
            let innermost = "C\(child).\(depths[child] - 1)"
            if failing.contains(child) {
                expected[innermost] = .failed
                // The hop above it swallows the error (`try?`) and returns a value: it recovered, and accepted.
                if depths[child] > 1 { expected["C\(child).\(depths[child] - 2)"] = .accepted }
            } else if synchronous.contains(child) {
                expected["S\(child)"] = .accepted
            } else if parents.contains(child) {
                expected["G\(child).0"] = .accepted
                expected["G\(child).1"] = .accepted
            } else if deciding.contains(child) {
                expected[innermost] = .continued
                // Only an observer's decision inside it: the hop that called it took the command.
                if depths[child] > 1 { expected["C\(child).\(depths[child] - 2)"] = .accepted }
            } else {
                expected[innermost] = .accepted
            }
        }
        // The same for the outer hop, when every child is one hop that continued — or when a child one hop deep
        // failed, its error swallowed in its task, and no hop accepted: the outer hop recovered.
        if (0..<children).allSatisfy({ deciding.contains($0) && depths[$0] == 1 }) { expected["Outer"] = .accepted }
        if (0..<children).contains(where: { failing.contains($0) && depths[$0] == 1 }),
            !expected.values.contains(.accepted)
        {
            expected["Outer"] = .accepted
        }
        #expect(trace.path.sorted() == expected.keys.sorted(), "seed \(seed): \(trace.path)")
        let decided = Dictionary(trace.hops.map { ($0.handler, $0.decision) }, uniquingKeysWith: { first, _ in first })
        for (handler, decision) in expected where decided[handler] != decision {
            Issue.record(
                "seed \(seed): \(handler) \(decided[handler].map { "\($0)" } ?? "missing"), expected \(decision)"
            )
        }
        #expect(trace.hops.allSatisfy { $0.selfDuration <= $0.inclusiveDuration }, "seed \(seed)")
        // Each child's hops nest: one hop's inclusive time covers the next one's.
        for child in 0..<children where depths[child] > 1 {
            let times = (0..<depths[child]).compactMap { level in
                trace.hops.first { $0.handler == "C\(child).\(level)" }?.inclusiveDuration
            }
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 >= $1 }, "seed \(seed), child \(child): \(times)")
        }
    }

    /// The same with `async let`: two validators run at once inside a stage, one failing (its error caught by
    /// the stage), one accepting, each several times over so that their hops interleave; each hop keeps its own
    /// decision, and the stage passed.
    @Test func asyncLetValidatorsKeepTheirOwnDecisions() async throws {
        struct Invalid: Error {}
        let command = Sent(number: 7)
        @Sendable func check(_ name: String, fails: Bool) async throws -> Bool {
            try await traceHop(name, command: command, chain: "asynctracerecycling") { () async throws -> Bool in
                await Task.yield()
                if fails { throw Invalid() }
                return true
            }
        }
        let sink = InMemoryTraceSink()
        await ChainTracing.withRecorder(Recorder(sink: sink)) {
            _ = await traceHop("Stage", command: command, chain: "asynctracerecycling") { () async -> Bool in
                var all = true
                for round in 0..<20 {
                    async let email = check("Email\(round)", fails: round % 3 == 0)
                    async let name = check("Name\(round)", fails: false)
                    let emailOK = (try? await email) ?? false
                    let nameOK = (try? await name) ?? false
                    all = all && emailOK && nameOK
                }
                return all
            }
        }
        let trace = try #require(sink.traces.first)
        #expect(trace.hops.count == 41)
        for hop in trace.hops {
            let expected: Decision
            if hop.handler == "Stage" {
                expected = .passed
            } else if hop.handler.hasPrefix("Email"), let round = Int(hop.handler.dropFirst(5)), round % 3 == 0 {
                expected = .failed
            } else {
                expected = .accepted
            }
            #expect(hop.decision == expected, "\(hop.handler): \(hop.decision)")
        }
    }
}
