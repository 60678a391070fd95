import ChainTraceTestSupport
import Testing

@testable import ChainTraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// ``BinomialTail`` against the distribution worked out plainly — Pascal's triangle, row by row, every term — for
/// generated trial counts, chances and success counts (the edges included); and, for trial counts too large for
/// that, against its own laws: 1 at no successes, never rising as they grow, 0 past the trials, and the normal
/// approximation's answer within a few hundredths three standard deviations either side of the mean.
@Suite("Binomial tails")
struct BinomialTailTests {
    /// P(X = k) for k in 0...n, by the triangle: each row from the one before.
    static func distribution(trials: Int, each probability: Double) -> [Double] {
        var row = [1.0]
        for _ in 0..<trials {
            var next = [Double](repeating: 0, count: row.count + 1)
            for (count, chance) in row.enumerated() {
                next[count] += chance * (1 - probability)
                next[count + 1] += chance * probability
            }
            row = next
        }
        return row
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func agreesWithTheWholeDistribution(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let trials = random.pick([1, 2, 3, 5, 10, 20, 30, 100, Int.random(in: 1...300, using: &random)])
        let probability = random.pick([
            0.05, 0.01, 0.001, 0.5, 0.95, 1e-6, Double.random(in: 0.0001...0.9999, using: &random),
        ])
        let terms = Self.distribution(trials: trials, each: probability)
        for successes in -1...(trials + 1) {
            let expected = successes <= 0 ? 1 : successes > trials ? 0 : terms[successes...].reduce(0, +)
            let actual = BinomialTail.probability(atLeast: successes, of: trials, each: probability)
            // Relative where the tail is large enough to tell; a tail below 1e-250 only has to be as small.
            let tolerance = max(expected * 1e-9, 1e-250)
            #expect(
                abs(actual - expected) <= tolerance,
                "seed \(seed): \(successes) of \(trials) at \(probability): \(actual), expected \(expected)"
            )
        }
    }

    @Test(arguments: [0.0, 1.0])
    func certainChances(probability: Double) {
        for trials in [1, 7, 1_000_000] {
            #expect(BinomialTail.probability(atLeast: 1, of: trials, each: probability) == probability)
            #expect(BinomialTail.probability(atLeast: trials, of: trials, each: probability) == probability)
            #expect(BinomialTail.probability(atLeast: 0, of: trials, each: probability) == 1)
        }
    }

    @Test(arguments: [1_000, 100_000, 10_000_000, 1_000_000_000])
    func largeTrialCountsKeepTheLaws(trials: Int) {
        let probability = 0.05
        let mean = Double(trials) * probability
        let deviation = (mean * (1 - probability)).squareRoot()
        var last = 1.0
        for step in -12...12 {
            let z = Double(step) / 4
            let successes = Int((mean + z * deviation).rounded())
            let tail = BinomialTail.probability(atLeast: successes, of: trials, each: probability)
            #expect(tail <= last + 1e-12, "\(successes) of \(trials): \(tail) after \(last)")
            last = tail
            // The normal approximation, corrected for continuity.
            let normal = 0.5 * erfc((Double(successes) - 0.5 - mean) / deviation / 2.0.squareRoot())
            #expect(abs(tail - normal) < 0.03, "\(successes) of \(trials): \(tail), normal \(normal)")
        }
        #expect(BinomialTail.probability(atLeast: trials, of: trials, each: probability) == 0)  // underflows
        #expect(BinomialTail.probability(atLeast: trials + 1, of: trials, each: probability) == 0)
    }
}
