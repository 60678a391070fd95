import CChainTraceSupport

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one clock the recorder reads per hop.
///
/// Where the kernel itself keeps time with the CPU's invariant time-stamp counter (Linux `clocksource` `tsc`,
/// or any arm64 machine), it reads the counter directly: about 12 ns on the reference VM against 27 ns for
/// `clock_gettime`. Elsewhere it reads `CLOCK_MONOTONIC`. Readings are ticks; hops keep ticks and become
/// nanoseconds only when a trace is read, through a ratio calibrated once against `CLOCK_MONOTONIC`.
@usableFromInline
enum MonotonicClock {
    /// Ticks since an arbitrary fixed point; never goes backwards.
    @inlinable
    static func now() -> UInt64 {
        if usesCycleCounter { return chaintrace_read_cycle_counter() }
        return monotonicNanoseconds()
    }

    /// Never inlined: its `timespec` on the stack gave each caller a stack guard (four instructions on every
    /// traced hop's `begin` and `end`), though the cycle counter is read instead wherever there is one.
    @usableFromInline @inline(never)
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Whether ticks come from the cycle counter (decided once per process).
    @usableFromInline
    static let usesCycleCounter: Bool = {
        guard chaintrace_read_cycle_counter() != 0 else { return false }
        #if os(Linux) && (arch(x86_64) || arch(i386))
            // Trust the TSC only where the kernel does: it is then invariant and synchronised across cores.
            guard let file = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r") else {
                return false
            }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 64)
            guard fgets(&line, Int32(line.count), file) != nil else { return false }
            let source = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return source.hasPrefix("tsc")
        #else
            return true
        #endif
    }()

    /// Calibration: a (ticks, monotonic ns, wall ns) anchor and the nanoseconds per tick.
    @usableFromInline
    struct Calibration: Sendable {
        @usableFromInline let nanosecondsPerTick: Double
        @usableFromInline let anchorTicks: UInt64
        @usableFromInline let anchorWallNanoseconds: Int64
    }

    @usableFromInline
    static let calibration: Calibration = {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let wallNanoseconds = Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec)
        guard usesCycleCounter else {
            return Calibration(nanosecondsPerTick: 1, anchorTicks: now(), anchorWallNanoseconds: wallNanoseconds)
        }
        // Measure the counter against CLOCK_MONOTONIC over 2 ms, once per process. Each end is the clock read
        // between two counter reads, the narrowest of a few tries, and taken at their middle: a thread preempted
        // between a counter read and a clock read (a loaded machine; the tests under AddressSanitizer) put the whole
        // pause into the ticks, and a 5 µs pause made every duration 0.25% short (a 2 ms spin measured 1.995 ms).
        let start = pairedReading()
        var current = start.nanoseconds
        while current &- start.nanoseconds < 2_000_000 { current = monotonicNanoseconds() }
        let end = pairedReading()
        let ratio = Double(end.nanoseconds &- start.nanoseconds) / Double(max(1, end.ticks &- start.ticks))
        return Calibration(nanosecondsPerTick: ratio, anchorTicks: start.ticks, anchorWallNanoseconds: wallNanoseconds)
    }()

    /// The counter and CLOCK_MONOTONIC read at one moment: of five clock reads, the one whose surrounding counter
    /// reads lie closest together, with the counter at their middle.
    private static func pairedReading() -> (ticks: UInt64, nanoseconds: UInt64) {
        var best = (width: UInt64.max, ticks: UInt64(0), nanoseconds: UInt64(0))
        for _ in 0..<5 {
            let before = chaintrace_read_cycle_counter()
            let nanoseconds = monotonicNanoseconds()
            let after = chaintrace_read_cycle_counter()
            let width = after &- before
            if width < best.width { best = (width, before &+ width / 2, nanoseconds) }
        }
        return (best.ticks, best.nanoseconds)
    }

    /// Nanoseconds per tick as a 32.32 fixed-point number, or `nil` when ticks already are nanoseconds: a
    /// conversion is then one integer multiplication, which matters when a profile converts every hop.
    @usableFromInline
    static let nanosecondsPerTick: UInt64? =
        usesCycleCounter ? UInt64((calibration.nanosecondsPerTick * 4_294_967_296).rounded()) : nil

    /// Converts a span of ticks into nanoseconds, rounding to the nearest.
    @inlinable
    static func nanoseconds(_ ticks: UInt64) -> UInt64 {
        guard let scale = nanosecondsPerTick else { return ticks }
        return nanoseconds(ticks, scale: scale)
    }

    /// Converts a span of ticks into nanoseconds with ``nanosecondsPerTick``, read once by the caller.
    @inlinable
    static func nanoseconds(_ ticks: UInt64, scale: UInt64) -> UInt64 {
        let (high, low) = ticks.multipliedFullWidth(by: scale)
        let (roundedLow, carry) = low.addingReportingOverflow(1 << 31)
        return ((high &+ (carry ? 1 : 0)) &<< 32) | (roundedLow >> 32)
    }

    /// Converts a reading into wall-clock nanoseconds since 1970.
    @inlinable
    static func wallTime(_ ticks: UInt64) -> Int64 {
        let calibration = calibration
        let sinceAnchor = Int64(bitPattern: ticks &- calibration.anchorTicks)
        return calibration.anchorWallNanoseconds
            &+ Int64((Double(sinceAnchor) * calibration.nanosecondsPerTick).rounded())
    }
}
