#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one clock the recorder reads: nanoseconds from `CLOCK_MONOTONIC`, about 27 ns a read on Linux.
@usableFromInline
enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point; never goes backwards.
    @inlinable
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Wall-clock nanoseconds since 1970 minus monotonic nanoseconds, read once per process, so a trace's wall
    /// start time costs no extra clock read.
    @usableFromInline
    static let wallClockOffset: Int64 = {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let wallNanoseconds = Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec)
        return wallNanoseconds - Int64(bitPattern: now())
    }()

    /// Converts a monotonic reading into wall-clock nanoseconds since 1970.
    @inlinable
    static func wallTime(_ monotonic: UInt64) -> Int64 {
        wallClockOffset &+ Int64(bitPattern: monotonic)
    }
}
