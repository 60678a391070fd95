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
            let number: Int64 = switch Int.random(in: 0..<5, using: &random) {
            case 0: .min
            case 1: .max
            case 2: Int64.random(in: -10...10, using: &random)
            case 3: Int64(bitPattern: random.next())
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
}
