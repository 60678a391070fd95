import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// Chain definitions as users write them — generated with observers, trees, registries, rules of every kind,
/// failures, budgets — load and build a chain; and one member given a value of the wrong type is an error at
/// that value's line and column, saying what was expected.
@Suite("Chain definitions: generated valid files load, one wrong member is reported where it is")
struct DefinitionErrorPositionTests {
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        // One member per line, as people write them, so lines and columns both matter.
        return writer.bytes.flatMap { $0 == UInt8(ascii: ",") ? [$0, 0x0A, 0x20, 0x20] : [$0] }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func validFilesLoadAndAWrongMemberIsReportedWhereItIs(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (value, targets) = GeneratedDefinition.make(&random)
        let valid = Self.bytes(value)
        let definition = try ChainDefinition.load(bytes: valid, file: "generated.chain.json")
        let chain = try definition.makeChain()
        #expect(chain.name == "generated", "seed \(seed)")
        #expect(
            definition.handlers.count == targets.filter { $0.path.count == 3 && $0.path[2] == "name" }.count,
            "seed \(seed)"
        )
        // Every command goes somewhere without trapping: a dry run and a real run.
        for kind in ["Tap", "Coin", "Other"] {
            let command = JSONCommand(kind: kind, fields: ["size": "M", "weight": 2, "card": ["type": "visa"]])
            _ = try chain.whoWouldHandle(command)
            _ = try? chain.send(command)
        }

        let target = random.pick(targets)
        let invalid = Self.bytes(value.changing(at: target.path[...], to: target.wrong))
        do {
            _ = try ChainDefinition.load(bytes: invalid, file: "generated.chain.json")
            Issue.record("seed \(seed): \(target.path) = \(target.wrong) was accepted")
        } catch {
            let lines = invalid.split(separator: 0x0A, omittingEmptySubsequences: false)
            #expect(error.line >= 1 && error.line <= lines.count, "seed \(seed): \(error)")
            guard error.line >= 1 && error.line <= lines.count else { return }
            let line = Array(lines[error.line - 1])
            #expect(error.column >= 1 && error.column <= line.count, "seed \(seed): \(error)")
            guard error.column >= 1 && error.column <= line.count else { return }
            #expect(
                line[error.column - 1] == target.first,
                "seed \(seed): \(target.path): \(error) points at \(String(decoding: line[(error.column - 1)...], as: UTF8.self))"
            )
            #expect(
                error.description.hasPrefix("generated.chain.json:\(error.line):\(error.column): expected "),
                "seed \(seed): \(error.description)"
            )
        }
    }
}
