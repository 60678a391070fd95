import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

@testable import ChainTrace

/// The recorder scope instrumented hops read outside any task (the thread's copy) against the task-local it
/// stands for, through generated nestings of synchronous scopes, on this thread and on threads of their own, and
/// inside tasks.
@Suite("Scoped recorder: the thread's copy against the task-local", .tags(.concurrent))
struct ScopedRecorderCopyTests {
    /// Which recorder a scope set, by its configuration's identity: `nil` for no scope, `.some(nil)` for
    /// `Recorder.off`.
    static func identity(_ recorder: Recorder?) -> ObjectIdentifier?? {
        recorder.map { $0.configuration.map(ObjectIdentifier.init) }
    }

    /// What the instrumented hops read.
    static var scoped: Recorder? { ChainTracing.scopedRecorder(thread: ThreadState.current) }
    /// The task-local it stands for.
    static var taskLocal: Recorder? { ChainTracing.taskLocalScopedRecorder }

    /// Opens `depth` nested scopes (some `Recorder.off`), checking at every level, before and after the inner
    /// one, that both reads agree.
    static func nest(_ depth: Int, random: inout SeededGenerator, seed: UInt64, checks: inout Int) {
        #expect(identity(Self.scoped) == identity(Self.taskLocal), "seed \(seed)")
        checks += 1
        guard depth > 0 else { return }
        let recorder = random.chance(0.2) ? Recorder.off : Recorder(sink: InMemoryTraceSink())
        ChainTracing.withRecorder(recorder) {
            #expect(identity(Self.scoped) == identity(recorder), "seed \(seed)")
            nest(depth - 1, random: &random, seed: seed, checks: &checks)
            #expect(identity(Self.scoped) == identity(recorder), "seed \(seed)")
        }
        #expect(identity(Self.scoped) == identity(Self.taskLocal), "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func bothReadsAgreeOutsideTasks(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var checks = 0
        Self.nest(Int.random(in: 0...6, using: &random), random: &random, seed: seed, checks: &checks)
        // On a thread of its own, outside any task and any scope of this one.
        let depth = Int.random(in: 0...6, using: &random)
        let threadChecks = LockedValue(0)
        let thread = JoinableThread {
            var random = SeededGenerator(seed: seed ^ 1)
            var checks = 0
            Self.nest(depth, random: &random, seed: seed, checks: &checks)
            threadChecks.withLock { $0 = checks }
        }
        thread.join()
        #expect(checks > 0 && threadChecks.withLock { $0 } > 0)
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func bothReadsAgreeInTasks(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        let outer = Recorder(sink: InMemoryTraceSink())
        await ChainTracing.withRecorder(outer) {
            #expect(Self.identity(Self.scoped) == Self.identity(outer))
            var checks = 0
            // Synchronous scopes opened inside the task.
            Self.nest(Int.random(in: 0...4, using: &random), random: &random, seed: seed, checks: &checks)
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { Self.identity(Self.scoped) == Self.identity(outer) }
                for await agrees in group { #expect(agrees, "seed \(seed)") }
            }
        }
        // A synchronous scope outside any task, and a task started inside it, which inherits it.
        let scope = Recorder(sink: InMemoryTraceSink())
        let inherited = ChainTracing.withRecorder(scope) {
            Task.detached { Self.identity(Self.scoped) }
        }
        #expect(await inherited.value == nil, "a detached task inherits no scope")
    }
}
