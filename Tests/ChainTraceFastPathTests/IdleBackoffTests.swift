import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

/// `IdleBackoff` against a plain statement of its rule, over generated runs of passes: after the pass that last
/// moved something, the n-th empty pass sleeps `shortest × 2ⁿ` up to `longest`, and no longer than the flush
/// interval; while something drained since the last flushing pass may be unwritten, never past the next flush's due
/// time; never less than a microsecond.
@Suite("Idle backoff against its rule")
struct IdleBackoffTests {
    @Test(arguments: SeededGenerator.seeds(100))
    func itSleepsAsTheRuleSays(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var backoff = IdleBackoff()
        var emptySince = 0  // empty passes since one moved something (or since the start)
        var unflushed = false  // a pass moved something since the last flushing pass
        let flushInterval = Int64.random(in: 1_000_000...2_000_000_000, using: &random)
        for _ in 0..<300 {
            let moved = random.chance(0.3) ? Int.random(in: 1...100, using: &random) : 0
            let flushing = random.chance(0.2)
            backoff.passed(moved: moved, flushing: flushing)
            if moved > 0 {
                emptySince = 0
                unflushed = !flushing
            } else if flushing {
                unflushed = false
            }
            #expect(backoff.holdsUnflushed == unflushed)
            guard moved == 0 else { continue }
            let sinceFlush = Int64.random(in: 0...(flushInterval * 2), using: &random)
            var expected = min(IdleBackoff.longest, IdleBackoff.shortest << min(emptySince, 20), flushInterval)
            if unflushed { expected = min(expected, max(0, flushInterval - sinceFlush)) }
            expected = max(1_000, expected)
            #expect(backoff.sleep(sinceFlush: sinceFlush, flushInterval: flushInterval) == expected)
            emptySince += 1
        }
    }

    /// A long idle spell costs few wake-ups: from the shortest sleep to a second of sleeping takes 20 passes.
    @Test func aSecondOfIdlingIsAboutTwentyPasses() {
        var backoff = IdleBackoff()
        var slept: Int64 = 0
        var passes = 0
        while slept < 1_000_000_000 {
            backoff.passed(moved: 0, flushing: false)
            slept += backoff.sleep(sinceFlush: 0, flushInterval: 200_000_000)
            passes += 1
        }
        #expect(passes <= 22)
        #expect(backoff.wait == IdleBackoff.longest)
    }
}
