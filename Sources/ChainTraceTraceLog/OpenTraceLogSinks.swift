import ChainTraceFastPath

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The trace log sinks open in this process, flushed when it exits normally — returning from `main`, or `exit` —
/// without having closed them. A sink given to `ChainTracing.bootstrap` lives as long as the process, and Swift
/// runs no `deinit` of a global at exit: every trace still in a thread's queue or the writer's buffer was lost (a
/// program recording 100 traces and ending left a log of none). A process killed, or crashing, still loses what was
/// not flushed: the log's torn tail says where.
enum OpenTraceLogSinks {
    /// A sink, held weakly: the list keeps none alive. (Unchecked: a `weak var` is not checked for sendability;
    /// the sink is `Sendable`, and an entry is only read and written under the list's lock.)
    private struct Entry: @unchecked Sendable {
        weak var sink: TraceLogSink?
        let identity: ObjectIdentifier
    }

    private static let open = LockedValue<[Entry]>([])

    /// Installs the exit handler, once, on the first sink opened.
    private static let exitHandler: Void = {
        atexit { OpenTraceLogSinks.flushAll() }
    }()

    /// Notes `sink` as open.
    static func add(_ sink: TraceLogSink) {
        _ = exitHandler
        open.withLock { entries in
            entries.removeAll { $0.sink == nil }
            entries.append(Entry(sink: sink, identity: ObjectIdentifier(sink)))
        }
    }

    /// Notes `sink` as closed (or gone).
    static func remove(_ sink: TraceLogSink) {
        let identity = ObjectIdentifier(sink)
        open.withLock { entries in entries.removeAll { $0.identity == identity || $0.sink == nil } }
    }

    /// Flushes every sink still open. Run at exit: other threads may still be recording, which a flush allows; a
    /// write error has no one left to be reported to (the log's reader sees what was written).
    static func flushAll() {
        let sinks = open.withLock { entries in entries.compactMap(\.sink) }
        for sink in sinks { try? sink.flush() }
    }
}
