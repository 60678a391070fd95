import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A file of the wrong kind where a command expects another — a trace log or a command stream (JSON Lines) given as
/// the chain definition, a definition (one JSON document over several lines) given as a log or a stream, as
/// arguments swapped by mistake give them — is an error that says which kind of file it found. Before, the error
/// was exact but said only "found '{'" on line 2, or "found the end of the input" at 1:2. A trace log is named as
/// one, at its header line; a command stream given as a log, by its first line's command.
@Suite("A file of the wrong kind")
struct WrongKindOfFileCommandTests {
    /// A JSON object spread over several lines, as a chain definition is (any object: the check is the layout).
    static func document(_ random: inout SeededGenerator, in directory: URL) throws -> String {
        let object: [String: Any] = [
            "name": "chain-\(UInt32.random(in: 0...UInt32.max, using: &random))",
            "handlers": (0..<Int.random(in: 1...4, using: &random)).map { ["name": "H\($0)"] },
        ]
        let text = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return try CLI.write(Array(text), named: "document.json", in: directory)
    }

    static let spreadOverLines =
        "found the end of the line (JSON Lines hold one whole value a line; this file spreads one over several"
    static let secondValue = "a second value (JSON Lines, one value a line, as a trace log or a command stream holds)"
    /// A command stream's first line, where a log's header should be.
    static let aCommand = "found an object with a kind member: a command, as a command stream's lines are"
    /// A trace where a log's header should be.
    static let aTrace = "found a trace, with no header line before it"
    /// A trace log is told by its header line (`LogGivenAsDefinitionCommandTests` has more of them).
    static let traceLog = "found a trace log (its first line is a trace log's header)"

    @Test(arguments: SeededGenerator.seeds(6))
    func aFileOfTheWrongKindIsNamedForWhatItIs(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        let document = try Self.document(&random, in: inputs.directory)
        // A trace log's lines without its header, as copied out of one.
        let written = try LogGivenAsDefinitionCommandTests.log(
            &random,
            count: 2,
            format: .jsonLines,
            in: inputs.directory
        )
        let withoutHeader = try String(contentsOfFile: written, encoding: .utf8).split(separator: "\n").dropFirst()
        let headerless = try CLI.write(
            Array((withoutHeader.joined(separator: "\n") + "\n").utf8),
            named: "headerless.jsonl",
            in: inputs.directory
        )
        let lines = random.pick([inputs.log, inputs.stream])
        let linesSay = lines == inputs.log ? Self.traceLog : Self.secondValue
        let runs: [(arguments: [String], says: String)] = [
            // JSON Lines where one document is expected.
            (["replay", lines, inputs.stream], linesSay),
            (["validate", lines], linesSay),
            (["which", lines, #"{"kind":"Tap"}"#], linesSay),
            (["render", lines], linesSay),
            (["stats", inputs.log, "--definition", lines], linesSay),
            // One document over several lines where JSON Lines are expected.
            (["replay", inputs.definition, document], Self.spreadOverLines),
            (["stats", document], Self.spreadOverLines),
            (["export", document, "--to", random.pick(["chrome", "folded", "otlp", "jsonl"])], Self.spreadOverLines),
            (["diff", inputs.log, document], Self.spreadOverLines),
            (["render", "--trace", document], Self.spreadOverLines),
            (["gen-tests", document], Self.spreadOverLines),
            // A command stream where a trace log is expected.
            (["stats", inputs.stream], Self.aCommand),
            (["export", inputs.stream, "--to", random.pick(["chrome", "folded", "otlp", "jsonl"])], Self.aCommand),
            (["diff", inputs.log, inputs.stream], Self.aCommand),
            (["render", "--trace", inputs.stream], Self.aCommand),
            (["gen-tests", inputs.stream], Self.aCommand),
            (["stats", headerless], Self.aTrace),
            (["export", headerless, "--to", "jsonl"], Self.aTrace),
        ]
        for run in runs {
            let ended = try CLI.run(run.arguments)
            let context = "seed \(seed), \(run.arguments.joined(separator: " "))"
            #expect(ended.status == (run.arguments.first == "validate" ? 1 : 2), "\(context): \(ended.standardError)")
            // `validate` lists what it found on standard output; the others fail with it on standard error.
            let said = ended.standardOutput + ended.standardError
            #expect(said.contains(run.says), "\(context): \(said)")
            // Still the exact place: the file, line and column come first.
            let place =
                [Self.secondValue: ":2:1: ", Self.traceLog: ":1:1: ", Self.aCommand: ":1:1: ", Self.aTrace: ":1:1: "][
                    run.says
                ] ?? ":1:2: "
            #expect(said.contains(place), "\(context): \(said)")
        }
    }

    /// A line cut short with nothing after it — a stream's last line, a command given as an argument — or a line
    /// that opens no object or array is not called a document spread over lines: it ended at "the end of the
    /// line", at the place it was cut. And `which` given "-" for its command is told that standard input is `@-`.
    @Test(arguments: SeededGenerator.seeds(6))
    func aLineCutShortIsNotCalledADocument(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        // A command object cut after a generated number of its members.
        let members = (0..<Int.random(in: 0...4, using: &random)).map {
            #""f\#($0)": \#(Int.random(in: 0...99, using: &random))"#
        }
        let cut = "{" + members.joined(separator: ", ") + (members.isEmpty || random.chance(0.5) ? "" : ",")
        let last = try CLI.write(
            Array((random.chance(0.5) ? #"{"kind":"Tap"}"# + "\n" : "").utf8) + Array((cut + "\n").utf8),
            named: "cut.jsonl",
            in: inputs.directory
        )
        let scalarFirst = try CLI.write(
            Array("-\n{\"kind\":\"Tap\"}\n".utf8),
            named: "scalar.jsonl",
            in: inputs.directory
        )
        for arguments in [
            ["replay", inputs.definition, last], ["which", inputs.definition, "@" + last],
            ["which", inputs.definition, cut],
            ["replay", inputs.definition, scalarFirst],
        ] {
            let ended = try CLI.run(arguments)
            let context = "seed \(seed), \(arguments.joined(separator: " ")): \(ended.standardError)"
            #expect(ended.status == 2, "\(context)")
            #expect(
                ended.standardError.contains("found the end of the line") && !ended.standardError.contains("spreads"),
                "\(context)"
            )
        }
        let dash = try CLI.run(["which", inputs.definition, "-"])
        #expect(
            dash.status == 2 && dash.standardError.contains("write @- to read the command from standard input"),
            "\(dash.standardError)"
        )
    }
}
