import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

/// `IdleBackoff` against a plain statement of its rule, over generated runs of passes: each pass that is not busy
/// (moved fewer than `busyPass` elements) sleeps `shortest × 2ⁿ`, n counting up by one after each such pass up to
/// where that is `longest`, and down by one at each busy pass, never below 0; no longer than the flush interval; a
/// busy pass sleeps not at all; while something drained since the last flushing pass may be unwritten, never past
/// the next flush's due time; never less than a microsecond.
@Suite("Idle backoff against its rule")
struct IdleBackoffTests {
    @Test(arguments: SeededGenerator.seeds(100))
    func itSleepsAsTheRuleSays(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var backoff = IdleBackoff()
        var doublings = 0  // up by one a sleep, down by one a busy pass, within 0...most
        let most = (IdleBackoff.longest / IdleBackoff.shortest).trailingZeroBitCount
        var unflushed = false  // a pass moved something since the last flushing pass
        let flushInterval = Int64.random(in: 1_000_000...2_000_000_000, using: &random)
        for _ in 0..<300 {
            let moved =
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5: 0
                case 5..<8: Int.random(in: 1..<IdleBackoff.busyPass, using: &random)
                default: Int.random(in: IdleBackoff.busyPass...4 * IdleBackoff.busyPass, using: &random)
                }
            let flushing = random.chance(0.2)
            backoff.passed(moved: moved, flushing: flushing)
            if moved > 0, !flushing {
                unflushed = true
            } else if flushing {
                unflushed = false
            }
            #expect(backoff.holdsUnflushed == unflushed)
            guard moved < IdleBackoff.busyPass else {
                #expect(!IdleBackoff.sleepsAfter(moved: moved))
                doublings = max(0, doublings - 1)
                continue
            }
            #expect(IdleBackoff.sleepsAfter(moved: moved))
            let sinceFlush = Int64.random(in: 0...(flushInterval * 2), using: &random)
            var expected = min(IdleBackoff.shortest << doublings, flushInterval)
            if unflushed { expected = min(expected, max(0, flushInterval - sinceFlush)) }
            expected = max(1_000, expected)
            #expect(backoff.sleep(sinceFlush: sinceFlush, flushInterval: flushInterval) == expected)
            doublings = min(most, doublings + 1)
        }
    }

    /// A trickle — a few elements each pass — is slept through as an idle spell is, in batches: 300 passes of 1 to
    /// 30 elements end sleeping the longest.
    @Test func aTrickleIsDrainedInBatches() {
        var backoff = IdleBackoff()
        for moved in (0..<300).map({ 1 + $0 % 30 }) {
            backoff.passed(moved: moved, flushing: false)
            #expect(IdleBackoff.sleepsAfter(moved: moved))
            _ = backoff.sleep(sinceFlush: 0, flushInterval: 200_000_000)
        }
        #expect(backoff.wait == IdleBackoff.longest)
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
