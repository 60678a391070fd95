import ChainTrace
import Testing

/// A finished async instrumented trace is kept for the next one its thread starts, but only when nothing else
/// holds it: a task started inside the command (not a child: an unstructured `Task`) keeps the trace's task-local,
/// and a hop it runs later joins that command's trace — never the next command's.
@Suite("Async traces reused only when nothing holds them")
struct AsyncTraceRecyclingTests {
    struct Sent: Sendable, TracedCommand {
        let number: Int
        var commandID: String? { "\(number)" }
    }

    @Test func aHopLeftRunningInAnUnstructuredTaskNeverJoinsALaterCommandsTrace() async throws {
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink, capturesPayloads: false)
        for round in 0..<20 {
            let (lateGate, openLate) = AsyncStream.makeStream(of: Void.self)
            let (lateDone, finishLate) = AsyncStream.makeStream(of: Void.self)
            let late = await ChainTracing.withRecorder(recorder) { () async -> Task<Void, Never> in
                let task = await traceHop("First", command: Sent(number: round)) { () async -> Task<Void, Never> in
                    // Inherits the task-local that names the first command's trace, and outlives its hop.
                    Task {
                        for await _ in lateGate { break }
                        _ = await traceHop("Late", command: Sent(number: round)) { () async -> Int in 0 }
                        finishLate.yield()
                        finishLate.finish()
                    }
                }
                // The next command, in the same task: its trace is started while the late hop is still to run.
                _ = await traceHop("Second", command: Sent(number: round)) { () async -> Int in
                    openLate.yield()
                    openLate.finish()
                    for await _ in lateDone { break }
                    return 1
                }
                return task
            }
            await late.value
        }
        let paths = sink.traces.map(\.path)
        #expect(paths.count == 40)
        #expect(paths.allSatisfy { $0 == ["First"] || $0 == ["First", "Late"] || $0 == ["Second"] }, "\(paths)")
        #expect(paths.filter { $0 == ["Second"] }.count == 20, "\(paths)")
    }

    /// Hops still open when their trace is delivered — begun by a task that outlives the command, one inside the
    /// other — are delivered as they were opened: no time, and in no registry (an open hop's record names the hop
    /// it is nested in).
    @Test func aHopStillOpenWhenItsTraceIsDeliveredHasNoRegistryOrTime() async throws {
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink, capturesPayloads: false)
        let (begun, noteBegun) = AsyncStream.makeStream(of: Void.self)
        let (release, letGo) = AsyncStream.makeStream(of: Void.self)
        let late = await ChainTracing.withRecorder(recorder) { () async -> Task<Void, Never> in
            await traceHop("First", command: Sent(number: 0)) { () async -> Task<Void, Never> in
                let task = Task {
                    _ = await traceHop("Late", command: Sent(number: 0)) { () async -> Int in
                        await traceHop("Later", command: Sent(number: 0)) { () async -> Int in
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
        let recorder = Recorder(sink: sink, capturesPayloads: false)
        await ChainTracing.withRecorder(recorder) {
            for number in 0..<200 {
                _ = await traceHop("Outer", command: Sent(number: number)) { () async -> Int in
                    await withTaskGroup(of: Int.self) { group in
                        for child in 0..<(number % 3) {
                            group.addTask { await traceHop("Child\(child)", command: Sent(number: number)) { () async -> Int in child } }
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
            #expect(Set(trace.path.dropFirst()) == Set((0..<(number % 3)).map { "Child\($0)" }), "command \(number): \(trace.path)")
        }
    }
}
