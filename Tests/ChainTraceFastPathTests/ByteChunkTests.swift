import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

/// `ByteChunk` against plain Swift: every integer it writes is `String(number)`'s bytes, bytes and numbers mixed up
/// to the chunk's size come out in order, and moving it appends exactly that to an array and empties it.
@Suite("Byte chunk against String")
struct ByteChunkTests {
    @Test(arguments: SeededGenerator.seeds(100))
    func itWritesWhatStringWrites(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var chunk = ByteChunk()
        var expected: [UInt8] = Array("prefix".utf8)
        var array = expected
        for _ in 0..<50 {
            let number: Int64 =
                switch Int.random(in: 0..<6, using: &random) {
                case 0: .min
                case 1: .max
                case 2: Int64.random(in: -10...10, using: &random)
                case 3: Int64(bitPattern: random.next())
                case 4:
                    // Either side of every power of ten, where the digit count changes.
                    (0..<Int.random(in: 0...18, using: &random)).reduce(Int64(1)) { power, _ in power * 10 }
                        + Int64.random(in: -1...1, using: &random) * (random.chance(0.5) ? 1 : -1)
                default: Int64.random(in: -1_000_000...1_000_000, using: &random)
                }
            if !chunk.hasRoom(for: ByteChunk.decimalWidth + 1) { chunk.move(to: &array) }
            chunk.append(decimal: number)
            chunk.append(UInt8(ascii: ","))
            expected += Array(String(number).utf8) + [UInt8(ascii: ",")]
        }
        chunk.move(to: &array)
        #expect(array == expected, "seed \(seed)")
        #expect(chunk.count == 0)
        // The widest number fills exactly the width it promises.
        var widest = ByteChunk()
        widest.append(decimal: .min)
        #expect(widest.count == ByteChunk.decimalWidth)
    }

    /// Every number of up to four digits, both signs — each pair of digits in every place of the number — written
    /// as `String` writes it.
    @Test func everyPairOfDigitsIsWritten() {
        for number in Int64(-9_999)...9_999 {
            var chunk = ByteChunk()
            chunk.append(decimal: number)
            var bytes: [UInt8] = []
            chunk.move(to: &bytes)
            if bytes != Array(String(number).utf8) {
                Issue.record("\(number): \(String(decoding: bytes, as: UTF8.self))")
                return
            }
        }
    }

    /// Every power of ten and its neighbours, both signs, written as `String` writes them.
    @Test func everyDigitCountIsWritten() {
        var power: Int64 = 1
        for _ in 0...18 {
            for number in [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)] {
                var chunk = ByteChunk()
                chunk.append(decimal: number)
                var bytes: [UInt8] = []
                chunk.move(to: &bytes)
                #expect(bytes == Array(String(number).utf8), "\(number)")
            }
            if power <= Int64.max / 10 { power *= 10 }
        }
    }
}
