import ChainTrace
import ChainTraceJSON

/// Writes a Swift Testing source file that replays each command of a recorded trace log and checks what happened
/// to it then — a recorded session turned into a regression test (`chaintrace gen-tests`).
///
/// ```swift
/// var generator = SwiftTestGenerator(logName: "session.jsonl", definitionPath: "app.chain.json", mode: .exhaustive)
/// while let trace = try reader.next() { generator.add(trace, line: reader.line) }
/// let source = generator.source
/// ```
package struct SwiftTestGenerator: Sendable {
    /// How much each generated test checks.
    package enum Mode: String, Sendable, CaseIterable {
        /// The whole path and the outcome.
        case exhaustive
        /// Only the outcome: who accepted it, that nobody did, or where it failed.
        case lenient
    }

    /// The log's name, as the generated file's header mentions it.
    package let logName: String
    /// The chain definition the tests load; `nil` makes them call `makeRecordedChain()`, which the test target
    /// must define.
    package let definitionPath: String?
    /// How much each test checks.
    package let mode: Mode
    /// The command line that made the file, for its header.
    package let commandLine: String
    /// The name of the generated suite's type: each file of a test target needs its own.
    package let typeName: String
    private var tests: [String] = []

    /// The type name when none is given: a file's tests alone in its target.
    package static let defaultTypeName = "RecordedSessionTests"

    /// Prepares a file for the traces of `logName`, its tests in a suite type named `typeName` (a Swift
    /// identifier: ``isTypeName(_:)``).
    package init(
        logName: String,
        definitionPath: String?,
        mode: Mode,
        commandLine: String,
        typeName: String = defaultTypeName
    ) {
        precondition(Self.isTypeName(typeName), "not a type name: \(typeName)")
        self.logName = logName
        self.definitionPath = definitionPath
        self.mode = mode
        self.commandLine = commandLine
        self.typeName = typeName
    }

    /// Whether `name` can name the suite's type: ASCII letters, digits and underscores, not starting with a digit,
    /// and none of the names Swift keeps for itself (`Self`, `Any`, `Type`, `Protocol`, keywords).
    package static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
            && !reservedNames.contains(name) && name != "_"
    }

    /// Names a type may not take: Swift's keywords and the standard library's type-level names.
    private static let reservedNames: Set<String> = [
        "Self", "Any", "Type", "Protocol", "associatedtype", "class", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
        "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "as", "false", "is", "nil", "self", "super", "throws", "true",
        "try", "await", "async", "consume", "borrowing", "consuming", "some", "any",
    ]

    /// A suite type name for a file named `fileName` (a path is allowed): its base name in UpperCamelCase — words
    /// split at anything but ASCII letters and digits — ending in `Tests` (`checkout-session.swift`:
    /// `CheckoutSessionTests`; `RecordedLoginTests.swift` as it is), so that the suite never takes the name of a
    /// type of the app under test. ``defaultTypeName`` when the name gives no word.
    package static func typeName(forFile fileName: String) -> String {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        let stem = base.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? base
        let words = stem.unicodeScalars.split {
            !($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        }
        var name = words.map { word in
            let text = String(String.UnicodeScalarView(word))
            return text.prefix(1).uppercased() + text.dropFirst()
        }.joined()
        guard !name.isEmpty else { return defaultTypeName }
        if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = "Recorded" + name }
        if !name.hasSuffix("Tests") { name += "Tests" }
        return isTypeName(name) ? name : defaultTypeName
    }

    /// Adds a test for one recorded trace, found on `line` of the log (of `file`, for a log of several files), its
    /// doc comment ending with `notes` (what the test cannot reproduce of the recording), one line each.
    package mutating func add(_ trace: Trace, line: Int, file: String? = nil, notes: [String] = []) {
        let number = tests.count + 1
        let name = "command\(number)" + (trace.commandID.map { "_" + Self.identifier($0) } ?? "")
        let fields = trace.payload ?? [:]
        let command =
            "JSONCommand(kind: \(Self.literal(trace.commandKind)), id: \(trace.commandID.map(Self.literal) ?? "nil"), fields: \(Self.expression(fields)))"
        // Names go into the comment as literals too: a newline in one would end the comment and break the file.
        let place = file.map { "Line \(line) of \(Self.comment($0))" } ?? "Line \(line) of the log"
        var test =
            "    /// \(place): \(trace.commandID.map { "command \(Self.literal($0)), " } ?? "")\(Self.literal(trace.commandKind)).\n"
        for note in notes { test += "    /// \(Self.comment(note))\n" }
        test += "    @Test func \(name)() throws {\n"
        test += "        let traces = captureTraces {\n"
        test += "            _ = try? chain.send(\(command), from: \(Self.literal(trace.entry)))\n"
        test += "        }\n"
        test += "        try #require(traces.count == 1)\n"
        if mode == .exhaustive {
            test += "        expectPath(traces[0], [\(trace.path.map(Self.literal).joined(separator: ", "))])\n"
        }
        switch trace.outcome {
        case .accepted(let handler): test += "        expectHandled(traces[0], by: \(Self.literal(handler)))\n"
        case .fellOffTheEnd: test += "        expectUnhandled(traces[0])\n"
        case .failed(let handler, let error):
            test += "        expectFailed(traces[0], at: \(Self.literal(handler)), error: \(Self.literal(error)))\n"
        }
        test += "    }\n"
        tests.append(test)
    }

    /// The whole source file.
    package var source: String {
        var text = """
            // Generated by `\(Self.comment(commandLine))`.
            // Each test replays one command recorded in \(Self.comment(logName)) and checks \(mode == .exhaustive ? "the path it took and how it ended" : "how it ended").
            // Regenerate it rather than edit it.

            import ChainTrace
            import ChainTraceDefinitions
            import ChainTraceTesting
            import Testing


            """
        text += "@Suite(\(Self.literal("Recorded session: " + logName)))\nstruct \(typeName) {\n"
        text += "    let chain: Chain<JSONCommand, JSONValue>\n\n"
        text += "    init() throws {\n"
        if let definitionPath {
            text +=
                "        chain = try ChainDefinition.load(path: \(Self.literal(definitionPath))).makeChain(unknownTypes: .modelFromRules)\n"
        } else {
            text +=
                "        // Define `func makeRecordedChain() throws -> Chain<JSONCommand, JSONValue>` in this test target.\n"
            text += "        chain = try makeRecordedChain()\n"
        }
        text += "    }\n"
        for test in tests { text += "\n" + test }
        text += "}\n"
        return text
    }

    /// A Swift string literal for `text`.
    package static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where VisibleText.isActive(scalar):
                result += VisibleText.escape(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Text for a `//` comment: as a literal's contents, so no newline ends the comment early and no control or
    /// bidi character (which the compiler refuses, or which reorders what a reader sees) reaches the file.
    package static func comment(_ text: String) -> String {
        String(literal(text).dropFirst().dropLast())
    }

    /// A Swift expression building `value`, with explicit cases so large payloads type-check quickly.
    package static func expression(_ value: JSONValue) -> String {
        switch value {
        case .null: ".null"
        case .bool(let flag): ".bool(\(flag))"
        case .integer(let number): ".integer(\(number))"
        case .double(let number) where number.isSubnormal:
            // As a literal (`5e-324`) the compiler warns that it underflows: written by its bits, its value alongside.
            ".double(Double(bitPattern: 0x\(String(number.bitPattern, radix: 16, uppercase: true))) /* \(number) */)"
        case .double(let number): ".double(\(number))"
        case .string(let text): ".string(\(literal(text)))"
        case .array(let elements): ".array([\(elements.map(expression).joined(separator: ", "))])"
        case .object(let members):
            members.isEmpty
                ? ".object([:])"
                : ".object([\(members.sorted { $0.key < $1.key }.map { "\(literal($0.key)): \(expression($0.value))" }.joined(separator: ", "))])"
        }
    }

    /// `text` made into the tail of a Swift identifier: letters, digits and underscores.
    package static func identifier(_ text: String) -> String {
        String(
            text.unicodeScalars.prefix(40).map { scalar in
                (scalar.properties.isAlphabetic && scalar.isASCII) || ("0"..."9").contains(Character(scalar))
                    ? Character(scalar) : "_"
            }
        )
    }
}
