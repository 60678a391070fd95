import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// The order a directory's or a pattern's log files are read in: names compared with their digit runs by value.
/// Checked against a plain model (names cut into numbers and single bytes, compared as lists, then byte order) on
/// generated names full of digit runs, leading zeros and non-ASCII text; as a total order on generated triples; and
/// on a rotated log's names, shuffled, past 9 999.
@Suite("File name order")
struct FileNameOrderTests {
    /// A name cut into its parts: digit runs by value (no leading zeros; any length), other bytes one by one.
    enum Part: Comparable {
        case byte(UInt8)
        case number(digits: [UInt8])

        static func < (a: Part, b: Part) -> Bool {
            switch (a, b) {
            case (.byte(let x), .byte(let y)): return x < y
            case (.number(let x), .number(let y)):
                return x.count != y.count ? x.count < y.count : x.lexicographicallyPrecedes(y)
            // Digits lie together in ASCII: a byte that is no digit is below or above all of them.
            case (.byte(let x), .number): return x < UInt8(ascii: "0")
            case (.number, .byte(let y)): return y > UInt8(ascii: "9")
            }
        }
    }

    static func parts(_ name: String) -> [Part] {
        var parts: [Part] = []
        var digits: [UInt8]?
        for byte in name.utf8 {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits = (digits ?? []) + [byte]
                continue
            }
            if let run = digits { parts.append(.number(digits: Array(run.drop { $0 == UInt8(ascii: "0") }))) }
            digits = nil
            parts.append(.byte(byte))
        }
        if let run = digits { parts.append(.number(digits: Array(run.drop { $0 == UInt8(ascii: "0") }))) }
        return parts
    }

    static func modelPrecedes(_ a: String, _ b: String) -> Bool {
        let (x, y) = (parts(a), parts(b))
        if x != y { return x.lexicographicallyPrecedes(y) }
        return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }

    /// A name of digit runs (with leading zeros, some longer than any integer type), letters, dots, dashes and
    /// non-ASCII text.
    static func name(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                String(repeating: "0", count: Int.random(in: 0...2, using: &random))
                    + String(Int.random(in: 0...12_000, using: &random))
            case 1: String(repeating: "9", count: Int.random(in: 18...24, using: &random))
            case 2: random.pick(["traces", "a", "b", "-", ".", ".jsonl", ".gz", "_"])
            case 3: random.pick(["é", "ü", "日志", "~", " "])
            default: String(Int.random(in: 0...9, using: &random))
            }
        }.joined()
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func agreesWithThePlainModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let (a, b) = (Self.name(&random), Self.name(&random))
            #expect(FileNameOrder.precedes(a, b) == Self.modelPrecedes(a, b), "seed \(seed): '\(a)' and '\(b)'")
        }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func isATotalOrder(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            // Names close to one another: drawn from a few parts, so that ties and near-ties are common.
            let names = (0..<3).map { _ in
                random.pick(["a", "a0", "a00", "a1", "a01", "a10", "a9", "b", ""])
                    + random.pick(["", "1", "01", ".jsonl"])
            }
            let (a, b, c) = (names[0], names[1], names[2])
            #expect(!FileNameOrder.precedes(a, a), "seed \(seed): '\(a)'")
            if a != b {
                #expect(FileNameOrder.precedes(a, b) != FileNameOrder.precedes(b, a), "seed \(seed): '\(a)', '\(b)'")
            }
            if FileNameOrder.precedes(a, b), FileNameOrder.precedes(b, c) {
                #expect(FileNameOrder.precedes(a, c), "seed \(seed): '\(a)' < '\(b)' < '\(c)'")
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func aRotatedLogsFilesComeInNumberOrder(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let start = random.pick([1, 9_990, 99_990])
        let numbers = Array(start..<(start + Int.random(in: 2...30, using: &random)))
        let stem = random.pick(["traces", "logs/app-1", "t"])
        let names = numbers.map { number -> String in
            let digits = String(number)
            return stem + "-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".jsonl"
        }
        #expect(FileNameOrder.sorted(names.shuffled(using: &random)) == names, "seed \(seed)")
    }
}
