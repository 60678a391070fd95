import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// The linter on generated definitions: a valid one has no error-level finding (a chain can be made from it), and
/// each structural mistake injected into it — a duplicate name, a `next` naming nobody, a loop — is found as
/// its check, at the line and column of the member at fault.
@Suite("Lint of generated definitions")
struct LintPropertyTests {
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes.flatMap { $0 == UInt8(ascii: ",") ? [$0, 0x0A] : [$0] }
    }

    static func handlerCount(_ value: JSONValue) -> Int {
        if case .array(let handlers)? = value["handlers"] { handlers.count } else { 0 }
    }

    /// The line and column where `needle` first occurs in `bytes` after `after`, counted as the parser counts.
    static func position(of needle: String, in bytes: [UInt8], after: Int = 0) -> (line: Int, column: Int, offset: Int)?
    {
        let target = Array(needle.utf8)
        guard target.count <= bytes.count else { return nil }
        for offset in after...(bytes.count - target.count)
        where Array(bytes[offset..<(offset + target.count)]) == target {
            let before = bytes[..<offset]
            let line = before.filter { $0 == 0x0A }.count + 1
            let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return (line, column, offset)
        }
        return nil
    }

    @Test(arguments: SeededGenerator.seeds(50))
    func validHasNoErrorsAndEachInjectedMistakeIsFoundWhereItIs(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (value, _) = GeneratedDefinition.make(&random)
        let clean = ChainDefinitionLinter.lint(bytes: Self.bytes(value), file: "g.chain.json")
        #expect(!clean.contains { $0.severity == .error }, "seed \(seed): \(clean.map(\.description))")
        _ = try ChainDefinition.load(bytes: Self.bytes(value), file: "g.chain.json").makeChain()

        let count = Self.handlerCount(value)
        let victim = Int.random(in: 0..<count, using: &random)
        let (broken, check, marker): (JSONValue, LintFinding.Check, String)
        switch Int.random(in: 0..<3, using: &random) {
        case 0 where count > 1:
            let other = (victim + 1) % count
            broken = value.changing(at: ["handlers", "\(victim)", "name"], to: .string("H\(other)"))
            check = .duplicateName
            marker = #""name":"H\#(other)""#
        case 1:
            broken = value.changing(at: ["handlers", "\(victim)", "next"], to: .string("Ghost"))
            check = .unknownHandler
            marker = #""Ghost""#
        default:
            // The victim forwards to itself: the smallest loop.
            broken = value.changing(at: ["handlers", "\(victim)", "next"], to: .string("H\(victim)"))
                .changing(at: ["handlers", "\(victim)", "registry"], to: nil)
            check = .cycle
            marker = #""next":"H\#(victim)""#
        }
        let bytes = Self.bytes(broken)
        let findings = ChainDefinitionLinter.lint(bytes: bytes, file: "g.chain.json")
        let found = findings.filter { $0.check == check }
        #expect(
            !found.isEmpty && found.allSatisfy { $0.severity == .error },
            "seed \(seed): \(check) not found in \(findings.map(\.description))"
        )
        if check != .cycle, let finding = found.first {
            // The second occurrence for a duplicate: the first holder of the name is fine.
            var place = Self.position(of: marker, in: bytes)
            if check == .duplicateName, let first = place {
                place = Self.position(of: marker, in: bytes, after: first.offset + 1) ?? first
            }
            // The finding names the member's value (after `"name":` or `"next":`) or the member itself.
            if let place {
                #expect(finding.error.line == place.line, "seed \(seed): \(finding) vs line \(place.line)")
                #expect(
                    abs(finding.error.column - place.column) <= marker.count,
                    "seed \(seed): \(finding) vs column \(place.column)"
                )
            }
        }
        #expect(throws: FormatError.self, "seed \(seed): a chain was made from a definition with a \(check)") {
            try ChainDefinition.load(bytes: bytes, file: "g.chain.json").makeChain()
        }
    }

    /// A `next` or entry naming a registry member, or a near miss of a handler's name, in generated definitions:
    /// the member's finding names its registry (never "did you mean" the name itself), and a near miss is pointed
    /// to the handler of the chain's own paths it misspells — never to a registry member, which could not be named
    /// there either.
    @Test(arguments: SeededGenerator.seeds(50))
    func unknownNamesAreExplainedByWhatTheyNearlyName(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var (value, _) = GeneratedDefinition.make(&random)
        let count = Self.handlerCount(value)
        // A registry at a random handler, so that every definition has one.
        let owner = Int.random(in: 0..<count, using: &random)
        let member = "H\(owner)m0"
        value = value.changing(
            at: ["handlers", "\(owner)", "registry"],
            to: .array([.object(["name": .string(member), "weight": .integer(1)])])
        )
        for key in ["accepts", "fails", "role", "budget"] {
            value = value.changing(at: ["handlers", "\(owner)", key], to: nil)
        }
        let victim = Int.random(in: 0..<count, using: &random)
        let atEntry = random.chance(0.5)
        let misspelt = random.chance(0.5)
        // `H7` misspelt as `H7x` (one edit); the member's name as it is.
        let name = misspelt ? "H\(victim)x" : member
        let path: ArraySlice<String> = atEntry ? ["entries"] : ["handlers", "\(victim)", "next"]
        let broken = value.changing(at: path, to: atEntry ? .array([.string(name)]) : .string(name))
        let findings = ChainDefinitionLinter.lint(bytes: Self.bytes(broken), file: "g.chain.json")
        let finding = try #require(
            findings.first { $0.check == .unknownHandler },
            "seed \(seed): \(findings.map(\.description))"
        )
        let found = finding.error.found
        if misspelt {
            #expect(found.contains("did you mean \"H\(victim)\"?"), "seed \(seed): \(found)")
        } else {
            #expect(
                found.contains("a member of registry \"H\(owner)\"") && !found.contains("did you mean"),
                "seed \(seed): \(found)"
            )
        }
        #expect(throws: FormatError.self, "seed \(seed)") {
            try ChainDefinition.load(bytes: Self.bytes(broken), file: "g.chain.json").makeChain()
        }
    }
}
