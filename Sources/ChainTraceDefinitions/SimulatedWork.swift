import ChainTrace
import ChainTraceJSON

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Spends real time, busy, so that a replayed handler's `"work"` is measured like real work, never invented.
enum SimulatedWork {
    /// Spins until `nanoseconds` have passed on the monotonic clock.
    static func spin(nanoseconds: Int64) {
        guard nanoseconds > 0 else { return }
        let deadline = now() + nanoseconds
        while now() < deadline {}
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
