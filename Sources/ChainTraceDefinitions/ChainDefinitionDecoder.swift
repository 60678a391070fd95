import ChainTrace
import ChainTraceJSON

/// Turns a definition's JSON into a ``ChainDefinition``, collecting every problem (with its position) instead
/// of stopping at the first, so that a lint can report them all. A part with a problem is left out.
package struct ChainDefinitionDecoder {
    let document: JSONDocument
    package private(set) var findings: [LintFinding] = []
    /// Handlers with a problem in their own fields: later checks of their rules would only mislead.
    private(set) var handlersWithProblems: Set<String> = []
    private var currentHandler: String?

    package init(document: JSONDocument) {
        self.document = document
    }

    static let topLevelKeys: Set = ["$schema", "chain", "description", "entries", "handlers"]
    static let handlerKeys: Set = [
        "name", "type", "role", "accepts", "fails", "next", "budget", "work", "registry", "weight", "options",
        "description",
    ]
    static let fieldTestKeys: Set = ["field", "equals", "in", "min", "max", "matches", "present"]

    mutating func decode() -> ChainDefinition {
        let root = document.root
        guard case .object(let members) = root else {
            invalid("", expected: "a JSON object with \"chain\" and \"handlers\"", found: root.summary)
            return ChainDefinition(name: "", handlers: [], entries: nil, document: document)
        }
        checkKeys(members, allowed: Self.topLevelKeys, at: "")
        let name = string(members["chain"], at: "chain", what: "\"chain\", the chain's name") ?? ""
        var handlers: [HandlerDefinition] = []
        if case .array(let elements)? = members["handlers"] {
            if elements.isEmpty { invalid("handlers", expected: "at least one handler", found: "an empty list") }
            for (index, element) in elements.enumerated() {
                if let handler = decodeHandler(element, at: "handlers[\(index)]", inRegistry: false) {
                    handlers.append(handler)
                }
            }
        } else {
            invalid(
                "handlers",
                expected: "\"handlers\", a list of handler objects",
                found: members["handlers"]?.summary ?? "nothing"
            )
        }
        var entries: [String]?
        if let value = members["entries"] {
            entries = strings(value, at: "entries", what: "a list of handler names")
            if entries?.isEmpty == true {
                invalid(
                    "entries",
                    expected:
                        "at least one entry (leave \"entries\" out to enter at every handler no other one forwards to)",
                    found: "an empty list"
                )
            }
        }
        return ChainDefinition(name: name, handlers: handlers, entries: entries, document: document)
    }

    package mutating func decodeHandler(_ value: JSONValue, at path: String, inRegistry: Bool) -> HandlerDefinition? {
        guard case .object(let members) = value else {
            invalid(path, expected: "a handler object with a \"name\"", found: value.summary)
            return nil
        }
        currentHandler = members["name"]?.stringValue
        defer { currentHandler = nil }
        checkKeys(members, allowed: Self.handlerKeys, at: path)
        guard let name = string(members["name"], at: "\(path).name", what: "\"name\", unique in the chain") else {
            return nil
        }
        var handler = HandlerDefinition(name: name, source: path)
        if let type = members["type"] {
            handler.type = string(type, at: "\(path).type", what: "the name of a registered handler type")
        }
        if let role = members["role"] {
            switch role.stringValue {
            case "responder"?: handler.role = .responder
            case "observer"?: handler.role = .observer
            default: invalid("\(path).role", expected: "\"responder\" or \"observer\"", found: role.summary)
            }
        }
        if let accepts = members["accepts"] {
            handler.accepts = decodeRule(accepts, at: "\(path).accepts")
            if handler.role == .observer {
                invalid(
                    "\(path).accepts",
                    expected: "no \"accepts\" on an observer (it never stops the chain)",
                    found: "a rule"
                )
            }
        }
        if let fails = members["fails"] { handler.failure = decodeFailure(fails, at: "\(path).fails") }
        if let next = members["next"], next != .null {
            if inRegistry {
                invalid(
                    "\(path).next",
                    expected: "no \"next\" in a registry member (the registry orders them by weight)",
                    found: next.summary
                )
            } else {
                handler.next = string(next, at: "\(path).next", what: "the name of the handler it forwards to, or null")
            }
        }
        if let budget = members["budget"] { handler.budget = duration(budget, at: "\(path).budget") }
        if let work = members["work"] { handler.work = duration(work, at: "\(path).work") }
        if let weight = members["weight"] {
            if !inRegistry {
                invalid("\(path).weight", expected: "\"weight\" only on a registry member", found: weight.summary)
            } else if let exact = Self.integer(weight) {
                handler.weight = exact
            } else if case .double(let number) = weight, number.rounded() == number {
                invalid("\(path).weight", expected: "an integer weight from -2^63 to 2^63 - 1", found: weight.summary)
            } else {
                invalid("\(path).weight", expected: "an integer weight", found: weight.summary)
            }
        }
        if let options = members["options"] {
            if case .object = options {
                handler.options = options
            } else {
                invalid(
                    "\(path).options",
                    expected: "an object of settings for the handler type",
                    found: options.summary
                )
            }
        }
        if let registry = members["registry"] {
            if inRegistry {
                invalid("\(path).registry", expected: "no registry inside a registry", found: registry.summary)
            } else if case .array(let elements) = registry {
                handler.members = elements.enumerated().compactMap { index, element in
                    decodeHandler(element, at: "\(path).registry[\(index)]", inRegistry: true)
                }
                for key in ["accepts", "fails", "type", "role", "work", "budget"] where members[key] != nil {
                    invalid(
                        "\(path).\(key)",
                        expected: "no \"\(key)\" on a registry (its members decide)",
                        found: members[key]!.summary
                    )
                }
            } else {
                invalid(
                    "\(path).registry",
                    expected: "a list of member handlers, each with a \"weight\"",
                    found: registry.summary
                )
            }
        }
        return handler
    }

    private mutating func decodeFailure(_ value: JSONValue, at path: String) -> FailureRule? {
        guard case .object(let members) = value else {
            invalid(path, expected: "{\"when\": rule, \"error\": \"text\"}", found: value.summary)
            return nil
        }
        checkKeys(members, allowed: ["when", "error"], at: path)
        let error = string(members["error"], at: "\(path).error", what: "\"error\", the text of the failure")
        guard let whenValue = members["when"] else {
            invalid(path, expected: "\"when\", the rule for the commands it fails on", found: "no \"when\"")
            return nil
        }
        guard let rule = decodeRule(whenValue, at: "\(path).when"), let error else { return nil }
        return FailureRule(when: rule, error: error)
    }

    mutating func decodeRule(_ value: JSONValue, at path: String) -> Rule? {
        switch value {
        case .bool(let result):
            return .always(result)
        case .object(let members):
            if members["field"] != nil { return decodeFieldTest(members, at: path) }
            guard members.count == 1, let (key, operand) = members.first else {
                invalid(
                    path,
                    expected: Self.ruleExpectation,
                    found: "an object with members \(Self.list(members.keys))"
                )
                return nil
            }
            switch key {
            case "all", "any":
                guard case .array(let elements) = operand, !elements.isEmpty else {
                    invalid("\(path).\(key)", expected: "a non-empty list of rules", found: operand.summary)
                    return nil
                }
                let rules = elements.enumerated().map { decodeRule($1, at: "\(path).\(key)[\($0)]") }
                if rules.contains(where: { $0 == nil }) { return nil }
                return key == "all" ? .all(rules.compactMap { $0 }) : .any(rules.compactMap { $0 })
            case "not":
                return decodeRule(operand, at: "\(path).not").map { .not($0) }
            case "kind":
                if let kind = operand.stringValue { return .kind([kind]) }
                return strings(operand, at: "\(path).kind", what: "a command kind or a list of kinds").map { .kind($0) }
            default:
                invalid(
                    path,
                    expected: Self.ruleExpectation,
                    found:
                        "an object with member \"\(key)\"\(Self.suggestion(for: key, among: ["all", "any", "not", "kind", "field"]))"
                )
                return nil
            }
        default:
            invalid(path, expected: Self.ruleExpectation, found: value.summary)
            return nil
        }
    }

    /// `value` as an `Int` when it is a whole number that fits one, written as an integer or not (`10`, `10.0`,
    /// `1e3`): as a rule compares numbers, by their value.
    static func integer(_ value: JSONValue) -> Int? {
        switch value {
        case .integer(let number): Int(exactly: number)
        case .double(let number): Int(exactly: number)
        default: nil
        }
    }

    /// Whether a path step is written with bracketed indexes, `items[0]` or `grid[1][2]`.
    static func isBracketIndexed(_ component: String) -> Bool {
        guard let bracket = component.firstIndex(of: "["), bracket != component.startIndex, component.last == "]" else {
            return false
        }
        return component[bracket...].split(separator: "]").allSatisfy { (part: Substring) in
            part.first == "[" && part.count > 1 && part.dropFirst().allSatisfy { $0.isASCII && $0.isWholeNumber }
        }
    }

    static let ruleExpectation =
        "a rule: true, false, {\"field\": …, \"equals\"|\"in\"|\"min\"|\"max\"|\"matches\"|\"present\": …}, {\"kind\": …}, {\"all\": […]}, {\"any\": […]} or {\"not\": …}"

    private mutating func decodeFieldTest(_ members: [String: JSONValue], at path: String) -> Rule? {
        checkKeys(members, allowed: Self.fieldTestKeys, at: path)
        guard let fieldText = string(members["field"], at: "\(path).field", what: "a field path such as \"card.type\"")
        else { return nil }
        let components = FieldPath.steps(fieldText)
        if components.contains(where: \.isEmpty) {
            invalid("\(path).field", expected: "a dotted field path with no empty part", found: "\"\(fieldText)\"")
            return nil
        }
        // `items[0].sku`, as JavaScript and jq write it, would name a member "items[0]" and match nothing.
        if let indexed = components.firstIndex(where: Self.isBracketIndexed) {
            let dotted = components.flatMap { component -> [String] in
                guard Self.isBracketIndexed(component) else { return [component] }
                return component.split(whereSeparator: { $0 == "[" || $0 == "]" }).map(String.init)
            }
            invalid(
                "\(path).field",
                expected:
                    "a dotted field path, an array element by its index as a step (\"\(dotted.joined(separator: "."))\")",
                found: "\"\(fieldText)\" (\"\(components[indexed])\" is no member name)"
            )
            return nil
        }
        let field = FieldPath(fieldText)
        var tests: [Rule] = []
        if let expected = members["equals"] { tests.append(.equals(field, expected)) }
        if let candidates = members["in"] {
            if case .array(let values) = candidates {
                tests.append(.oneOf(field, values))
            } else {
                invalid("\(path).in", expected: "a list of values", found: candidates.summary)
                return nil
            }
        }
        if members["min"] != nil || members["max"] != nil {
            var bounds: [RuleNumber?] = []
            for key in ["min", "max"] {
                guard let bound = members[key] else {
                    bounds.append(nil)
                    continue
                }
                guard let number = RuleNumber(bound) else {
                    invalid("\(path).\(key)", expected: "a number", found: bound.summary)
                    return nil
                }
                bounds.append(number)
            }
            if let minimum = bounds[0], let maximum = bounds[1], minimum > maximum {
                invalid(
                    "\(path).max",
                    expected: "\"max\" at least \"min\" (\(minimum))",
                    found: "\(maximum)",
                    check: .invalidRule
                )
                return nil
            }
            tests.append(.range(field, minimum: bounds[0], maximum: bounds[1]))
        }
        if let pattern = members["matches"] {
            guard let source = pattern.stringValue else {
                invalid("\(path).matches", expected: "a regular expression as a string", found: pattern.summary)
                return nil
            }
            do {
                tests.append(.matches(field, try Pattern(source)))
            } catch {
                invalid(
                    "\(path).matches",
                    expected: "a valid regular expression",
                    found: "\"\(source)\" (\(error))",
                    check: .invalidRule
                )
                return nil
            }
        }
        if let present = members["present"] {
            guard case .bool(let flag) = present else {
                invalid("\(path).present", expected: "true or false", found: present.summary)
                return nil
            }
            tests.append(.present(field, flag))
        }
        switch tests.count {
        case 0:
            invalid(
                path,
                expected:
                    "a test on \"\(fieldText)\": \"equals\", \"in\", \"min\", \"max\", \"matches\" or \"present\"",
                found: "none",
                check: .invalidRule
            )
            return nil
        case 1: return tests[0]
        default: return .all(tests)
        }
    }

    // MARK: Values

    private mutating func string(_ value: JSONValue?, at path: String, what: String) -> String? {
        guard let value else {
            invalid(path, expected: what, found: "nothing")
            return nil
        }
        guard let text = value.stringValue, !text.isEmpty else {
            invalid(path, expected: what, found: value.summary)
            return nil
        }
        return text
    }

    private mutating func strings(_ value: JSONValue, at path: String, what: String) -> [String]? {
        guard case .array(let elements) = value else {
            invalid(path, expected: what, found: value.summary)
            return nil
        }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                invalid("\(path)[\(index)]", expected: "a string", found: element.summary)
                return nil
            }
            result.append(text)
        }
        return result
    }

    private mutating func duration(_ value: JSONValue, at path: String) -> Int64? {
        if let text = value.stringValue, let nanoseconds = DurationText.nanoseconds(text) { return nanoseconds }
        if let text = value.stringValue, DurationText.isTooLong(text) {
            invalid(path, expected: DurationText.tooLongExpectation, found: value.summary)
            return nil
        }
        invalid(path, expected: DurationText.expectation, found: value.summary)
        return nil
    }

    private mutating func checkKeys(_ members: [String: JSONValue], allowed: Set<String>, at path: String) {
        for key in members.keys.sorted() where !allowed.contains(key) {
            let location = path.isEmpty ? key : "\(path).\(key)"
            invalid(
                location,
                expected: "one of \(Self.list(allowed))",
                found: "\"\(key)\"\(Self.suggestion(for: key, among: allowed))"
            )
        }
    }

    mutating func invalid(_ path: String, expected: String, found: String, check: LintFinding.Check = .invalidField) {
        if let currentHandler { handlersWithProblems.insert(currentHandler) }
        findings.append(
            LintFinding(
                severity: .error,
                check: check,
                error: document.error(at: path, expected: expected, found: found)
            )
        )
    }

    static func list(_ names: some Collection<String>) -> String {
        names.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// ` (did you mean "next"?)` when a known name is one or two edits away.
    static func suggestion(for name: String, among candidates: some Collection<String>) -> String {
        let best = candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= max(1, min(2, name.count / 3)) else { return "" }
        return " (did you mean \"\(best.0)\"?)"
    }

    static func editDistance(_ left: String, _ right: String) -> Int {
        let left = Array(left)
        let right = Array(right)
        if left.isEmpty { return right.count }
        var previous = Array(0...right.count)
        for (i, a) in left.enumerated() {
            var current = [i + 1]
            for (j, b) in right.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a == b ? 0 : 1)))
            }
            previous = current
        }
        return previous[right.count]
    }
}
