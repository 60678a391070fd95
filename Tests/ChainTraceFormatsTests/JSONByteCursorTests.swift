import ChainTraceFastPath
import ChainTraceJSON
import Testing

/// The fast line decoders find the end of a plain string eight bytes at a time; they must stop exactly where a
/// byte-by-byte look would.
@Suite("JSON byte cursor")
struct JSONByteCursorTests {
    /// Where a byte-by-byte look stops: the first `"`, `\`, control byte or non-ASCII byte.
    static func plainCount(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        return index - start
    }

    @Test func plainStringsEndWhereAByteByByteLookEndsThem() {
        var generator = SystemRandomNumberGenerator()
        // Mostly letters, with every kind of byte that ends a plain run, and the values next to them.
        let stoppers: [UInt8] = [0x22, 0x5C, 0x00, 0x1F, 0x80, 0xC3, 0xFF, 0x7F, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x01]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) }
            for _ in 0..<Int.random(in: 0...3, using: &generator) where count > 0 {
                bytes[Int.random(in: 0..<count, using: &generator)] = stoppers.randomElement(using: &generator)!
            }
            let start = count == 0 ? 0 : Int.random(in: 0...count, using: &generator)
            bytes.withUnsafeBufferPointer { buffer in
                var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
                cursor.index = start
                #expect(cursor.plainStringByteCount() == Self.plainCount(bytes, from: start), "\(bytes) from \(start)")
            }
        }
    }

    @Test func keysAndStringsWithEscapesOrNonASCIIStillReadRight() {
        let line = Array(#"{"a-long-key-name":"caf\u00e9","é":"x","k":"tab\there","plain":"abcdefghijklmnop"}"#.utf8)
        line.withUnsafeBufferPointer { buffer in
            var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
            var seen: [String: String] = [:]
            let complete = cursor.members { cursor, key in
                let name = String(decoding: key.bytes, as: UTF8.self)
                let start = cursor.index
                if let text = cursor.string() {
                    seen[name] = text
                    return true
                }
                cursor.index = start
                seen[name] = "(left to the general parser)"
                return cursor.skipValue()
            }
            // A value with an escape is decoded on the fast path; a key that is not plain ASCII stops the fast
            // walk, and the caller hands the line to the general parser.
            #expect(seen["a-long-key-name"] == "café")
            #expect(!complete)
            #expect(seen["é"] == nil)
        }
        let plain = Array(#"{"a-long-key-name":"abcdefghijklmnopqrstu","n":"x"}"#.utf8)
        plain.withUnsafeBufferPointer { buffer in
            var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
            var seen: [String: String] = [:]
            #expect(cursor.members { cursor, key in
                seen[String(decoding: key.bytes, as: UTF8.self)] = cursor.string()
                return true
            })
            #expect(seen == ["a-long-key-name": "abcdefghijklmnopqrstu", "n": "x"])
        }
    }
}
