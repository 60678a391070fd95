import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// The lint's report on generated definitions with several mistakes at once, some with hostile names: errors come
/// before warnings, each group in file order; every finding reads `file:line:column: severity: expected …, found …
/// [check]` on one line that never acts on a terminal; and the count of errors decides, as `validate` says.
@Suite("Lint reports")
struct LintReportTests {
    @Test(arguments: SeededGenerator.seeds(50))
    func findingsAreOrderedAndReadOnOneVisibleLine(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var handlers: [String] = []
        let count = Int.random(in: 2...8, using: &random)
        for index in 0..<count {
            var members = [#""name":"H\#(index)""#]
            switch Int.random(in: 0..<6, using: &random) {
            case 0: members.append(#""next":\#(CLILine.text(.string(random.hostileName())))"#)  // unknown
            case 1: members.append(#""accepts":{"field":"size","min":5,"max":1}"#)  // invalid rule
            case 2: members.append(#""accepts":false"#)  // never accepts
            case 3: members.append(#""acepts":true"#)  // misspelt
            default: members.append(#""accepts":{"kind":["K\#(index)"]}"#)
            }
            handlers.append("{" + members.joined(separator: ",") + "}")
        }
        let text = #"{"chain":"c","handlers":[\#(handlers.joined(separator: ",\n"))]}"#
        let findings = ChainDefinitionLinter.lint(bytes: Array(text.utf8), file: "c.chain.json")
        // Errors first, then warnings.
        let severities = findings.map(\.severity)
        #expect(severities == severities.sorted { $0 == .error && $1 == .warning }, "seed \(seed): \(severities)")
        for finding in findings {
            let line = finding.description
            #expect(line.hasPrefix("c.chain.json:\(finding.error.line):"), "seed \(seed): \(line)")
            #expect(
                line.contains(": \(finding.severity.rawValue): expected ") && line.hasSuffix("[\(finding.check)]"),
                "seed \(seed): \(line)"
            )
            #expect(
                !line.unicodeScalars.contains {
                    $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value)
                },
                "seed \(seed): \(line.debugDescription)"
            )
        }
        // Within each severity, in file order.
        for severity in [LintFinding.Severity.error, .warning] {
            let lines = findings.filter { $0.severity == severity }.map(\.error.line)
            #expect(lines == lines.sorted(), "seed \(seed): \(severity) findings out of order: \(lines)")
        }
    }
}
