import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// Errors that quote data from a file (a definition's names) or a caller (a chain's handler names) stay on one
/// visible line, and keep the data exactly.
@Suite("Error descriptions quoting data")
struct ErrorDescriptionTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func errorDescriptionsQuotingDataStayOnOneVisibleLine(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let name = random.hostileName()
        // A definition whose handler forwards to a hostile name nobody has, and a rule with a hostile field value
        // of the wrong type: both errors quote data.
        let text = #"{"chain":"c","handlers":[{"name":"A","next":\#(CLILine.text(.string(name)))}]}"#
        let error = try #require(throws: FormatError.self) {
            try ChainDefinition.load(bytes: Array(text.utf8), file: "c.json")
        }
        let description = error.description
        #expect(
            !description.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0.value < 0x20 || $0.value == 0x7F },
            "seed \(seed): \(description.debugDescription)"
        )
        let chainError = try #require(throws: ChainError.self) { try Chain<Int, Int>("c").send(1, from: name) }
        #expect(!chainError.description.unicodeScalars.contains { $0 == "\n" || $0.value == 0x1B }, "seed \(seed)")
        // By bytes: a name that starts with a combining mark joins the quote before it into one Character.
        let (message, quoted) = (Array(chainError.message.utf8), Array("'\(name)'".utf8))
        #expect(
            (0...(message.count - quoted.count)).contains { message[$0..<($0 + quoted.count)].elementsEqual(quoted) },
            "seed \(seed): the message keeps the name exactly"
        )
    }
}
