import ChainTraceTestSupport
import Foundation
import Testing

/// A stream line the chain refuses — a command whose `entry` it lacks, a change naming a handler or registry it
/// lacks, or a handler name it already has — is reported at the column where the line gives the refused name, as a
/// line that is not JSON is: `file:line:column: expected …, found …`. The lines are generated (members in any order,
/// white space anywhere JSON allows it, names written with escapes, a last line with no newline), and each expected
/// column is where the generator wrote the name's value.
@Suite("Refused names in a stream, by line and column")
struct RefusedNameColumnCommandTests {
    /// One member of a generated line: its key and its value's JSON text.
    private struct Member {
        var key: String
        var value: String
    }

    /// A line the chain refuses, and the member whose value it refuses.
    private struct RefusedLine {
        var members: [Member]
        var refused: String
        /// The member of `refused`'s object that holds the name, when it is the new handler's object.
        var inner: String?
        var expected: String
        var name: String
    }

    /// The lines the chain of `responders.chain.json` refuses, with a new name `fresh`.
    private static func refusedLines(fresh: String, written: (String) -> String) -> [RefusedLine] {
        let ghost = "Ghost\(fresh)"
        let command = "a command the chain can take"
        let change = "a change the chain can make"
        func line(
            _ members: [(String, String)],
            refused: String,
            inner: String? = nil,
            _ expected: String,
            name: String
        ) -> RefusedLine {
            RefusedLine(
                members: members.map { Member(key: $0.0, value: $0.1) },
                refused: refused,
                inner: inner,
                expected: expected,
                name: name
            )
        }
        return [
            line(
                [("kind", #""Edit""#), ("entry", written(ghost)), ("row", "3")],
                refused: "entry",
                command,
                name: ghost
            ),
            line([("change", #""remove""#), ("handler", written(ghost))], refused: "handler", change, name: ghost),
            line(
                [("change", #""insert""#), ("handler", #"{"name": "New\#(fresh)"}"#), ("before", written(ghost))],
                refused: "before",
                change,
                name: ghost
            ),
            line(
                [("change", #""insert""#), ("handler", #"{"name": "New\#(fresh)"}"#), ("after", written(ghost))],
                refused: "after",
                change,
                name: ghost
            ),
            line(
                [("change", #""insert""#), ("handler", #"{"name": \#(written("List"))}"#), ("at", #""first""#)],
                refused: "handler",
                inner: "name",
                change,
                name: "List"
            ),
            line(
                [("change", #""insert""#), ("handler", #"{"next": \#(written(ghost)), "name": "New\#(fresh)"}"#)],
                refused: "handler",
                inner: "next",
                change,
                name: ghost
            ),
            line(
                [
                    ("change", #""register""#), ("registry", written(ghost)),
                    ("handler", #"{"name": "N", "weight": 1}"#),
                ],
                refused: "registry",
                change,
                name: ghost
            ),
            line(
                [
                    ("change", #""register""#), ("registry", #""Screens""#),
                    ("handler", #"{"weight": 2, "name": \#(written("Search"))}"#),
                ],
                refused: "handler",
                inner: "name",
                change,
                name: "Search"
            ),
            line(
                [("change", #""deregister""#), ("registry", #""Screens""#), ("handler", written(ghost))],
                refused: "handler",
                change,
                name: ghost
            ),
            line(
                [("change", #""link""#), ("handler", written(ghost)), ("next", #""Window""#)],
                refused: "handler",
                change,
                name: ghost
            ),
            line(
                [("change", #""link""#), ("handler", #""Cell""#), ("next", written(ghost))],
                refused: "next",
                change,
                name: ghost
            ),
            line(
                [("change", #""link""#), ("handler", written("Search")), ("next", #""Window""#)],
                refused: "handler",
                change,
                name: "Search"
            ),
        ]
    }

    @Test(arguments: SeededGenerator.seeds(8))
    func eachRefusedNameIsReportedAtItsColumn(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let space = { (random: inout SeededGenerator) in random.pick(["", "", " ", "  ", "\t"]) }
        // A name as JSON, its first letter sometimes escaped.
        func written(_ name: String, _ random: inout SeededGenerator) -> String {
            guard random.chance(0.3), let first = name.unicodeScalars.first else { return "\"\(name)\"" }
            let escaped = String(format: "\\u%04x", first.value)
            return "\"\(escaped)\(String(name.unicodeScalars.dropFirst()))\""
        }
        var text = ""
        var lineNumber = 0
        var expectedErrors: [(line: Int, column: Int, expected: String, name: String)] = []
        var commands = 0
        let count = Int.random(in: 5...40, using: &random)
        for index in 0..<count {
            lineNumber += 1
            var lineText = space(&random)
            if random.chance(0.4) {
                // A command the chain takes.
                let entry = random.chance(0.5) ? #", "entry": "Cell""# : ""
                lineText += #"{"kind": "Edit", "row": \#(index)\#(entry)}"#
                commands += 1
            } else {
                var choices = Self.refusedLines(fresh: "\(index)") { written($0, &random) }
                var line = choices.remove(at: Int.random(in: 0..<choices.count, using: &random))
                // The change's own member first or not; the rest in any order.
                line.members.shuffle(using: &random)
                lineText += "{" + space(&random)
                var refusedColumn = 0
                for (position, member) in line.members.enumerated() {
                    if position > 0 { lineText += "," + space(&random) }
                    lineText += "\"\(member.key)\"" + space(&random) + ":" + space(&random)
                    if member.key == line.refused, let inner = line.inner {
                        // A member of the new handler's object is what is refused: its column inside the object.
                        let range = try #require(member.value.range(of: "\"\(inner)\": "))
                        refusedColumn = lineText.utf8.count + member.value[..<range.upperBound].utf8.count + 1
                    } else if member.key == line.refused {
                        refusedColumn = lineText.utf8.count + 1
                    }
                    lineText += member.value
                }
                lineText += space(&random) + "}"
                expectedErrors.append((lineNumber, refusedColumn, line.expected, line.name))
            }
            text += lineText + space(&random)
            // The last line, sometimes without its newline.
            if index < count - 1 || random.chance(0.5) { text += "\n" }
        }
        let directory = try CLI.temporaryDirectory()
        let stream = try CLI.write(Array(text.utf8), named: "refused.jsonl", in: directory)
        let output = try CLI.run(
            "replay",
            CLI.fixture("responders.chain.json"),
            stream,
            "--skip-invalid",
            "--format",
            "json"
        )
        #expect(output.status == (expectedErrors.isEmpty ? 0 : 1), "seed \(seed): \(output.standardError)")
        let report = try CLI.json(output)
        #expect(report["commands"] as? Int == commands, "seed \(seed)")
        let reported = try #require(report["invalidLines"] as? [String])
        #expect(reported.count == expectedErrors.count, "seed \(seed): \(reported)")
        for (error, expected) in zip(reported, expectedErrors) {
            let place = "refused.jsonl:\(expected.line):\(expected.column): expected \(expected.expected), found "
            #expect(error.contains(place), "seed \(seed): \(error), wanted \(place)\n\(text)")
            #expect(error.contains(expected.name), "seed \(seed): \(error)")
        }
    }

    /// `which` names the column of an entry its command gives, in the argument and in a file.
    @Test func whichNamesTheColumnOfAnUnknownEntry() throws {
        let definition = CLI.fixture("responders.chain.json")
        let argument = try CLI.run("which", definition, #"{"kind": "Edit",  "entry": "Celll"}"#)
        #expect(argument.status == 2)
        #expect(argument.standardError.contains("<command>:1:28: expected an entry naming a handler of editor"))
        let directory = try CLI.temporaryDirectory()
        let file = try CLI.write(Array("\n\t{\"entry\":\"Celll\"}\n".utf8), named: "one.json", in: directory)
        let fromFile = try CLI.run("which", definition, "@" + file)
        #expect(fromFile.status == 2)
        #expect(fromFile.standardError.contains("one.json:2:11: expected an entry naming"), "\(fromFile.standardError)")
    }
}
