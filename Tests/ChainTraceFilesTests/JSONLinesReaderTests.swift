import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

@Suite("Reading JSON Lines")
struct JSONLinesReaderTests {
    func values(_ text: String) throws -> (values: [(Int, JSONValue)], torn: TornTail?) {
        let reader = JSONLinesReader(bytes: Array(text.utf8), name: "in.jsonl")
        var values: [(Int, JSONValue)] = []
        while let next = try reader.next() { values.append(next) }
        return (values, reader.tornTail)
    }

    @Test func valuesComeWithTheirLineNumbersAndBlankLinesAreSkipped() throws {
        let read = try values("{\"a\":1}\n\n   \n[2]\r\n\"three\"\n")
        #expect(read.values.map(\.0) == [1, 4, 5])
        #expect(read.values.map(\.1) == [["a": 1], [2], "three"])
        #expect(read.torn == nil)
    }

    @Test func anUnterminatedLastLineThatParsesIsKept() throws {
        let read = try values("1\n2")
        #expect(read.values.map(\.1) == [1, 2])
        #expect(read.torn == nil)
    }

    @Test func anUnterminatedLastLineThatDoesNotParseIsATornTail() throws {
        let read = try values("{\"a\":1}\n{\"a\":")
        #expect(read.values.count == 1)
        #expect(read.torn?.line == 2)
        #expect(read.torn?.byteCount == 5)
    }

    @Test func aBadTerminatedLineIsAnErrorAtItsLineAndColumn() {
        let error = #expect(throws: FormatError.self) { try values("1\n\n  [1,,2]\n3\n") }
        #expect(error?.description == "in.jsonl:3:6: expected a JSON value, found ','")
    }

    /// A file is read in chunks of a few hundred kilobytes: lines that straddle chunks, a line longer than several
    /// chunks, CRLF endings and an unterminated last line must all come back whole, numbered, in order, with
    /// the bytes read counted exactly.
    @Test func aFileReadInChunksGivesBackEveryLineWhole() throws {
        var generator = SystemRandomNumberGenerator()
        var expected: [String] = []
        var text = ""
        for index in 0..<6_000 {
            // Mostly short lines, now and then a long one, once one of 1.5 MB.
            let length =
                index == 2_500
                ? 1_500_000
                : index % 97 == 0
                    ? Int.random(in: 1_000...90_000, using: &generator) : Int.random(in: 0...120, using: &generator)
            let value = "v\(index)-" + String(repeating: "x", count: length)
            expected.append(value)
            text += "\"\(value)\"" + (index % 5 == 0 ? "\r\n" : "\n")
            if index % 50 == 0 { text += "   \n" }
        }
        text += "\"last\""
        expected.append("last")
        let path = TestFiles.directory.appendingPathComponent("chunks-\(UUID().uuidString).jsonl").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let reader = try JSONLinesReader(path: path)
        var read: [String] = []
        var lines: [Int] = []
        while let (line, value) = try reader.next() {
            guard case .string(let string) = value else {
                Issue.record("line \(line) is not a string")
                return
            }
            read.append(string)
            lines.append(line)
        }
        #expect(read.count == expected.count)
        #expect(read == expected)
        #expect(lines == lines.sorted() && Set(lines).count == lines.count)
        // Every line counted, blank ones too (split on bytes: "\r\n" is one `Character`).
        #expect(lines.last == text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count)
        #expect(reader.bytesRead == text.utf8.count)
        #expect(reader.tornTail == nil)
    }
}
