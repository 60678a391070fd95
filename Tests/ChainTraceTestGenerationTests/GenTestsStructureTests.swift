import ChainTrace
import ChainTraceDefinitions
import ChainTraceTestGeneration
import ChainTraceTestSupport
import Foundation
import Testing

/// The Swift `gen-tests` writes for a generated log: one test per trace, with unique names built from the ids; in
/// exhaustive mode an `expectPath` with every hop, in both modes the outcome's assertion with the right handler
/// and error; the chain built from the definition path when there is one, else from `makeRecordedChain()`.
@Suite("Generated test files")
struct GenTestsStructureTests {
    static func occurrences(_ text: String, in source: String) -> Int {
        source.components(separatedBy: text).count - 1
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func oneTestPerTraceWithItsAssertions(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let traces = (0..<Int.random(in: 1...15, using: &random)).map { index in
            let length = Int.random(in: 1...4, using: &random)
            let hops = (0..<length).map { position in
                Hop(
                    handler: "H\(position)",
                    position: position,
                    decision: position == length - 1 ? .accepted : .passed,
                    inclusiveDuration: 1,
                    selfDuration: 1
                )
            }
            let outcome: Outcome =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: .accepted(by: "H\(length - 1)")
                case 1: .failed(at: "H\(length - 1)", error: "broke \(index)")
                default: .fellOffTheEnd
                }
            return Trace(
                id: UInt64(index),
                commandKind: "K",
                commandID: random.chance(0.7) ? "id-\(index % 5)" : nil,
                entry: "H0",
                chain: "c",
                hops: hops,
                outcome: outcome,
                duration: 1
            )
        }
        let mode = random.pick(SwiftTestGenerator.Mode.allCases)
        let definition = random.chance(0.5) ? "defs/c.chain.json" : nil
        var generator = SwiftTestGenerator(
            logName: "log.jsonl",
            definitionPath: definition,
            mode: mode,
            commandLine: "chaintrace gen-tests log.jsonl"
        )
        for (index, trace) in traces.enumerated() { generator.add(trace, line: index + 2) }
        let source = generator.source

        let names = source.split(separator: "\n").filter { $0.contains("@Test func ") }.map { String($0) }
        #expect(names.count == traces.count, "seed \(seed)")
        #expect(Set(names).count == names.count, "seed \(seed): test names repeat")
        #expect(Self.occurrences("expectPath(", in: source) == (mode == .exhaustive ? traces.count : 0), "seed \(seed)")
        #expect(
            Self.occurrences("expectHandled(", in: source)
                == traces.filter { $0.outcome.acceptingHandler != nil }.count,
            "seed \(seed)"
        )
        #expect(
            Self.occurrences("expectUnhandled(", in: source) == traces.filter { $0.outcome == .fellOffTheEnd }.count,
            "seed \(seed)"
        )
        for trace in traces {
            if case .failed(let handler, let error) = trace.outcome {
                #expect(
                    source.contains("expectFailed(traces[0], at: \"\(handler)\", error: \"\(error)\")"),
                    "seed \(seed)"
                )
            }
            if mode == .exhaustive {
                #expect(
                    source.contains(
                        "expectPath(traces[0], [\(trace.path.map { "\"\($0)\"" }.joined(separator: ", "))])"
                    ),
                    "seed \(seed)"
                )
            }
        }
        if let definition {
            #expect(source.contains("ChainDefinition.load(path: \"\(definition)\")"), "seed \(seed)")
        } else {
            #expect(source.contains("chain = try makeRecordedChain()"), "seed \(seed)")
        }
    }

    /// Each generated file of a test target needs a suite type of its own: named from the output file, the names
    /// of files a user would write are Swift type names, end in `Tests` (never the name of an app's own type), keep
    /// a name that is one already, and differ for files whose words differ.
    @Test(arguments: SeededGenerator.seeds(60))
    func suiteTypesAreNamedFromTheirFiles(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let words = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            random.pick(["checkout", "Login", "2fa", "v2", "sign", "UP", "é", "ö-x", "tests", "a"])
        }
        let separator = random.pick(["-", "_", " ", ".", ""])
        let file =
            random.pick(["", "Tests/AppTests/", "/tmp/"]) + words.joined(separator: separator)
            + random.pick([".swift", ".swift.gz", ""])
        let name = SwiftTestGenerator.typeName(forFile: file)
        #expect(SwiftTestGenerator.isTypeName(name), "seed \(seed): \(file) → \(name)")
        #expect(name.hasSuffix("Tests"), "seed \(seed): \(file) → \(name)")
        #expect(name.first?.isUppercase == true, "seed \(seed): \(file) → \(name)")
        // The file's own ASCII letters and digits, in order, are the name's (less the `Tests` and `Recorded` added).
        let stem = (file.split(separator: "/").last.map(String.init) ?? file).split(
            separator: ".",
            omittingEmptySubsequences: false
        )[0]
        let kept = stem.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        if !kept.isEmpty {
            #expect(
                name.lowercased().contains(String(String.UnicodeScalarView(kept)).lowercased()),
                "seed \(seed): \(file) → \(name)"
            )
        }
        // A name that is already a suite's is kept.
        let own = "Recorded" + words.map { $0.filter(\.isLetter).filter(\.isASCII).capitalized }.joined() + "Tests"
        #expect(SwiftTestGenerator.typeName(forFile: own + ".swift") == own, "seed \(seed)")
        var generator = SwiftTestGenerator(
            logName: "log.jsonl",
            definitionPath: nil,
            mode: .lenient,
            commandLine: "chaintrace gen-tests",
            typeName: name
        )
        generator.add(
            Trace(
                id: 1,
                commandKind: "K",
                commandID: nil,
                entry: "A",
                chain: "c",
                hops: [Hop(handler: "A", position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
                outcome: .accepted(by: "A"),
                duration: 1
            ),
            line: 2
        )
        #expect(generator.source.contains("\nstruct \(name) {\n"), "seed \(seed)")
    }

    @Test func typeNamesRefuseWhatSwiftWouldNot() {
        for bad in ["", "9Tests", "struct", "Self", "Type", "a-b", "é", "_", "a b"] {
            #expect(!SwiftTestGenerator.isTypeName(bad), "\(bad)")
        }
        for good in ["RecordedSessionTests", "T", "_Private", "A2"] {
            #expect(SwiftTestGenerator.isTypeName(good), "\(good)")
        }
        #expect(SwiftTestGenerator.typeName(forFile: "-.swift") == SwiftTestGenerator.defaultTypeName)
        #expect(SwiftTestGenerator.typeName(forFile: "checkout-session.swift") == "CheckoutSessionTests")
    }

    /// Every number of a payload is written so that the compiler reads back exactly that number and warns about
    /// none: a subnormal one written as a literal (`5e-324`) "underflows and loses precision".
    @Test(arguments: SeededGenerator.seeds(40))
    func payloadNumbersAreWrittenAsTheCompilerReadsThemBackWithoutWarning(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let number: Double =
                switch Int.random(in: 0...3, using: &random) {
                case 0: Double(bitPattern: UInt64.random(in: 1..<(1 << 52), using: &random))  // subnormal
                case 1:
                    random.pick([
                        Double.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -0.0, 0,
                        .leastNormalMagnitude / 4,
                    ])
                case 2: Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
                default: Double.random(in: -1e6...1e6, using: &random)
                }
            guard number.isFinite else { continue }
            let written = SwiftTestGenerator.expression(.double(number))
            let body = String(written.dropFirst(".double(".count).dropLast())
            if body.hasPrefix("Double(bitPattern: 0x") {
                #expect(number.isSubnormal, "seed \(seed): \(written)")
                let hex = body.dropFirst("Double(bitPattern: 0x".count).prefix { $0.isHexDigit }
                #expect(UInt64(hex, radix: 16) == number.bitPattern, "seed \(seed): \(written)")
            } else {
                #expect(!number.isSubnormal, "seed \(seed): \(written) underflows")
                #expect(Double(body)?.bitPattern == number.bitPattern, "seed \(seed): \(written)")
            }
        }
    }
}
