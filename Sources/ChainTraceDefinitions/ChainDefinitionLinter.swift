import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

/// Checks a chain definition for mistakes: unknown or duplicate names, cycles, unreachable handlers, invalid
/// rules, and handlers that can never accept because an earlier one always takes their commands.
///
/// ```swift
/// for finding in try ChainDefinitionLinter.lint(path: "app-a.chain.json") { print(finding) }
/// ```
public struct ChainDefinitionLinter: Sendable {
    /// The definition checked.
    public let definition: ChainDefinition
    /// The top-level handlers by name (the first of a name given twice, as a walk along `next` finds it).
    private let topLevel: [String: HandlerDefinition]

    /// Prepares to check `definition`.
    public init(definition: ChainDefinition) {
        self.definition = definition
        topLevel = Dictionary(definition.handlers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads and checks the file at `path`: every problem of its fields and rules, then of its structure.
    ///
    /// - Throws: `FormatError` only when the file cannot be read; JSON that does not parse is an
    ///   `invalid-json` finding.
    public static func lint(path: String) throws(FormatError) -> [LintFinding] {
        lint(bytes: try FileBytes.read(path), file: path)
    }

    /// Checks a definition given as JSON text; `file` names it in findings.
    public static func lint(bytes: [UInt8], file: String) -> [LintFinding] {
        do {
            return lint(document: try ChainDefinition.document(bytes, file: file))
        } catch {
            return [LintFinding(severity: .error, check: .invalidJSON, error: error)]
        }
    }

    static func lint(document: JSONDocument) -> [LintFinding] {
        var decoder = ChainDefinitionDecoder(document: document)
        let definition = decoder.decode()
        let later = ChainDefinitionLinter(definition: definition).findings().filter { finding in
            finding.check == .unknownHandler || finding.check == .duplicateName || finding.check == .cycle
                || finding.check == .unreachable || !decoder.handlersWithProblems.contains(finding.handler ?? "")
        }
        // Errors first, then warnings; each in file order (by position, then as found).
        return (decoder.findings + later).enumerated().sorted { left, right in
            let leftKey = (
                left.element.severity == .error ? 0 : 1, left.element.error.line, left.element.error.column, left.offset
            )
            let rightKey = (
                right.element.severity == .error ? 0 : 1, right.element.error.line, right.element.error.column,
                right.offset
            )
            return leftKey < rightKey
        }.map(\.element)
    }

    /// Every finding about the definition's structure and rules, errors first, then in file order.
    public func findings() -> [LintFinding] {
        let structural = structuralFindings()
        if structural.contains(where: { $0.check == .unknownHandler || $0.check == .duplicateName }) {
            return structural
        }
        return structural + reachabilityFindings() + ruleFindings()
    }

    /// Unknown and duplicate names, and cycles: the problems that stop a definition from making a chain.
    func structuralFindings() -> [LintFinding] {
        var findings: [LintFinding] = []
        var seen: [String: String] = [:]
        for handler in allHandlers {
            if let first = seen[handler.name] {
                let (line, _) = definition.document?.position(of: first) ?? (0, 0)
                findings.append(
                    finding(
                        .error,
                        .duplicateName,
                        at: "\(handler.source).name",
                        handler: handler.name,
                        expected: "a name not used before",
                        found: "\"\(handler.name)\", already the name of the handler on line \(line)"
                    )
                )
            } else {
                seen[handler.name] = handler.source
            }
        }
        let topLevel = Set(definition.handlers.map(\.name))
        for handler in definition.handlers {
            if let next = handler.next, !topLevel.contains(next) {
                findings.append(
                    finding(
                        .error,
                        .unknownHandler,
                        at: "\(handler.source).next",
                        handler: handler.name,
                        expected: "\"next\" to name a handler of the chain",
                        found: "\"\(next)\"\(suggestion(for: next))"
                    )
                )
            }
        }
        var firstEntry: [String: Int] = [:]
        for (index, entry) in (definition.declaredEntries ?? []).enumerated() {
            if !topLevel.contains(entry) {
                findings.append(
                    finding(
                        .error,
                        .unknownHandler,
                        at: "entries[\(index)]",
                        handler: nil,
                        expected: "an entry naming a handler of the chain",
                        found: "\"\(entry)\"\(suggestion(for: entry))"
                    )
                )
            } else if let first = firstEntry[entry] {
                let (line, column) = definition.document?.position(of: "entries[\(first)]") ?? (0, 0)
                findings.append(
                    finding(
                        .error,
                        .duplicateName,
                        at: "entries[\(index)]",
                        handler: nil,
                        expected: "each entry once",
                        found: "\"\(entry)\", already entry \(first + 1) (line \(line), column \(column))"
                    )
                )
            } else {
                firstEntry[entry] = index
            }
        }
        if !findings.isEmpty { return findings }
        for cycle in cycles() {
            let start = definition.handler(named: cycle[0])!
            findings.append(
                finding(
                    .error,
                    .cycle,
                    at: "\(start.source).next",
                    handler: cycle[0],
                    expected: "a chain without cycles",
                    found: "the cycle \((cycle + [cycle[0]]).joined(separator: " → "))"
                )
            )
        }
        return findings
    }

    /// Each cycle once, starting at its handler that comes first in the file.
    func cycles() -> [[String]] {
        let next = Dictionary(definition.handlers.map { ($0.name, $0.next) }, uniquingKeysWith: { first, _ in first })
        var state: [String: Int] = [:]  // 1: on the current walk, 2: done
        let order = Dictionary(
            definition.handlers.enumerated().map { ($1.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        var result: [[String]] = []
        for handler in definition.handlers where state[handler.name] == nil {
            var walk: [String] = []
            var current: String? = handler.name
            while let name = current, state[name] == nil {
                state[name] = 1
                walk.append(name)
                current = next[name] ?? nil
            }
            if let name = current, state[name] == 1, let start = walk.firstIndex(of: name) {
                let cycle = Array(walk[start...])
                let first = cycle.min { order[$0]! < order[$1]! }!
                let rotation = cycle.firstIndex(of: first)!
                result.append(Array(cycle[rotation...] + cycle[..<rotation]))
            }
            for name in walk { state[name] = 2 }
        }
        return result
    }

    private func reachabilityFindings() -> [LintFinding] {
        let entries = definition.entries
        // No entry at all is an error of its own (an empty "entries"): every handler unreachable says nothing more.
        guard !entries.isEmpty else { return [] }
        var reached = Set<String>()
        for entry in entries { reached.formUnion(path(from: entry)) }
        return definition.handlers.filter { !reached.contains($0.name) }.map { handler in
            finding(
                .warning,
                .unreachable,
                at: handler.source,
                handler: handler.name,
                expected: "every handler on a path from an entry (\(entries.joined(separator: ", ")))",
                found: "\"\(handler.name)\", which no entry reaches"
            )
        }
    }

    /// The top-level names from `entry` to the end of its path, stopping before a repeat.
    func path(from entry: String) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        var current: String? = entry
        while let name = current, let handler = topLevel[name], seen.insert(name).inserted {
            names.append(name)
            current = handler.next
        }
        return names
    }

    private func ruleFindings() -> [LintFinding] {
        var findings: [LintFinding] = []
        // Each entry's walk once, not once a handler: a chain of thousands of handlers took minutes to lint.
        let walks = definition.entries.map(walk(from:))
        for handler in allHandlers where handler.role == .responder && !handler.isRegistry && handler.type == nil {
            guard let rule = handler.accepts else {
                findings.append(
                    finding(
                        .warning,
                        .neverAccepts,
                        at: handler.source,
                        handler: handler.name,
                        expected: "\"accepts\" on a responder (or \"role\": \"observer\")",
                        found: "\"\(handler.name)\" with no rule, which passes every command on"
                    )
                )
                continue
            }
            if rule.isUnsatisfiable {
                findings.append(
                    finding(
                        .warning,
                        .neverAccepts,
                        at: "\(handler.source).accepts",
                        handler: handler.name,
                        expected: "a rule some command can match",
                        found: "a rule no command matches"
                    )
                )
                continue
            }
            var shadows: [String] = []
            var reachedFromSomeEntry = false
            for walk in walks {
                guard let count = walk.respondersBefore[handler.name] else { continue }
                let earlier = walk.responders[..<count]
                reachedFromSomeEntry = true
                guard let shadow = earlier.first(where: { other in other.accepts.map { rule.implies($0) } ?? false })
                else {
                    shadows = []
                    break
                }
                if !shadows.contains(shadow.name) { shadows.append(shadow.name) }
            }
            if reachedFromSomeEntry, !shadows.isEmpty {
                findings.append(
                    finding(
                        .warning,
                        .shadowed,
                        at: "\(handler.source).accepts",
                        handler: handler.name,
                        expected: "a handler that gets some of the commands it accepts",
                        found:
                            "\"\(handler.name)\", whose commands \(shadows.map { "\"\($0)\"" }.joined(separator: " or ")) before it always accepts\(shadows.count == 1 ? "" : " on every path")"
                    )
                )
            }
        }
        return findings
    }

    /// What a command from one entry meets: the responders in the order it meets them (registry members in
    /// weight order), and for each handler on the way, how many of them come before it.
    private struct Walk {
        var responders: [HandlerDefinition] = []
        var respondersBefore: [String: Int] = [:]

        mutating func meet(_ handler: HandlerDefinition) {
            if respondersBefore[handler.name] == nil { respondersBefore[handler.name] = responders.count }
            if handler.role == .responder { responders.append(handler) }
        }
    }

    private func walk(from entry: String) -> Walk {
        var walk = Walk()
        for nodeName in path(from: entry) {
            guard let node = topLevel[nodeName] else { break }
            if let members = node.members {
                for member in Self.ordered(members) { walk.meet(member) }
            } else {
                walk.meet(node)
            }
        }
        return walk
    }

    /// Registry members in the order commands reach them: highest weight first, ties in file order.
    public static func ordered(_ members: [HandlerDefinition]) -> [HandlerDefinition] {
        RegistryOrder.arranged(members, weight: \.weight)
    }

    private var allHandlers: [HandlerDefinition] {
        definition.handlers.flatMap { [$0] + ($0.members ?? []) }
    }

    /// What to add to an unknown name: the registry it is a member of (a member is no handler of the chain's own
    /// paths), or the handler of those paths it is likely a misspelling of.
    private func suggestion(for name: String) -> String {
        if let registry = definition.handlers.first(where: { $0.members?.contains { $0.name == name } ?? false }) {
            return Self.registryMemberHint(registry.name)
        }
        return ChainDefinitionDecoder.suggestion(for: name, among: definition.handlers.map(\.name))
    }

    /// What follows a name that is a near miss of one of `names` — ` (did you mean "Cell"?)` — in the linter's
    /// findings and the CLI's errors alike; empty when none is near.
    package static func nearMiss(_ name: String, among names: [String]) -> String {
        ChainDefinitionDecoder.suggestion(for: name, among: names)
    }

    /// What follows a name that is a member of `registry` where a handler of the chain's own paths was expected,
    /// in the linter's findings and the CLI's errors alike.
    package static func registryMemberHint(_ registry: String) -> String {
        ", a member of registry \"\(registry)\" (name \"\(registry)\": its members are reached through it)"
    }

    private func finding(
        _ severity: LintFinding.Severity,
        _ check: LintFinding.Check,
        at path: String,
        handler: String?,
        expected: String,
        found: String
    ) -> LintFinding {
        LintFinding(
            severity: severity,
            check: check,
            error: definition.error(at: path, expected: expected, found: found),
            handler: handler
        )
    }
}
