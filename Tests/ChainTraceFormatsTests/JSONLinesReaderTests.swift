import ChainTrace
import ChainTraceFormats
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
}
