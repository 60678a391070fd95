import ChainTraceTestSupport
import Testing

@testable import ChainTrace

/// Cycle-counter ticks to nanoseconds, the conversion every recorded hop goes through, on generated spans and
/// scales: exactly the rounded product where it can be computed exactly, never decreasing as ticks grow, adding
/// up to within a nanosecond of rounding, and never trapping on the largest counts.
@Suite("Tick conversion")
struct ClockConversionTests {
    @Test(arguments: SeededGenerator.seeds(50))
    func conversionRoundsExactlyIsMonotoneAndAddsUp(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        // Scales as calibration makes them: nanoseconds per tick in 32.32 fixed point, 0.1–4 ns per tick.
        let scale = UInt64.random(in: 429_496_729...17_179_869_184, using: &random)
        for _ in 0..<200 {
            let ticks = UInt64.random(in: 0..<(1 << 20), using: &random)
            let exact = (ticks * scale + (1 << 31)) >> 32
            #expect(
                MonotonicClock.nanoseconds(ticks, scale: scale) == exact,
                "seed \(seed): \(ticks) ticks at \(scale)"
            )

            let a = UInt64.random(in: 0..<(1 << 40), using: &random)
            let b = UInt64.random(in: 0..<(1 << 40), using: &random)
            let (low, high) = (min(a, b), max(a, b))
            #expect(
                MonotonicClock.nanoseconds(low, scale: scale) <= MonotonicClock.nanoseconds(high, scale: scale),
                "seed \(seed)"
            )
            let sum = MonotonicClock.nanoseconds(a + b, scale: scale)
            let parts = MonotonicClock.nanoseconds(a, scale: scale) + MonotonicClock.nanoseconds(b, scale: scale)
            #expect(sum + 1 >= parts && sum <= parts + 1, "seed \(seed): \(sum) vs \(parts)")
        }
        _ = MonotonicClock.nanoseconds(.max, scale: scale)
        _ = MonotonicClock.nanoseconds(.max, scale: .max)
    }
}
