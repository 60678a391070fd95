#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The upper tail of the binomial distribution: the chance of at least `k` successes in `n` trials that each
/// succeed with chance `p`. The slow-handler rule asks it whether a handler has more hops over a time than its
/// percentile lets through by chance (see ``SlowHandlerRule``).
///
/// Worked out by summing the distribution's terms from `k` away from its mode, each from the one before by a
/// ratio, until they no longer change the sum — the side that decreases, so the sum stops after a few standard
/// deviations' worth of terms (about 60 000 for a billion trials), whatever `k` is.
enum BinomialTail {
    /// P(X ≥ `successes`) for X of a binomial distribution of `trials` trials with chance `probability` each;
    /// 1 for `successes` ≤ 0, 0 for `successes` > `trials`.
    static func probability(atLeast successes: Int, of trials: Int, each probability: Double) -> Double {
        guard successes > 0 else { return 1 }
        guard successes <= trials else { return 0 }
        guard probability > 0 else { return 0 }
        guard probability < 1 else { return 1 }
        let n = Double(trials)
        let odds = probability / (1 - probability)
        if Double(successes) > n * probability {
            // Past the mean: the terms from `successes` up fall away.
            var term = exp(logTerm(successes, of: n, each: probability))
            var sum = term
            var count = successes
            while count < trials, term > sum * 1e-17 {
                term *= (n - Double(count)) / Double(count + 1) * odds
                count += 1
                sum += term
            }
            return min(1, sum)
        }
        // At or below the mean: 1 less the terms below `successes`, which fall away from it downwards.
        var term = exp(logTerm(successes - 1, of: n, each: probability))
        var below = term
        var count = successes - 1
        while count > 0, term > below * 1e-17 {
            term *= Double(count) / (n - Double(count) + 1) / odds
            count -= 1
            below += term
        }
        return max(0, 1 - below)
    }

    /// The logarithm of P(X = `count`).
    private static func logTerm(_ count: Int, of n: Double, each probability: Double) -> Double {
        let k = Double(count)
        return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * log(probability) + (n - k) * log1p(-probability)
    }
}
