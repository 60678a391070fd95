import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

/// Reads a ``ChainChange`` from a stream line, with positions inside the line for its errors.
enum ChainChangeDecoder {
    /// Decodes the change on a stream line, read as a document so that errors name their column (changes are
    /// rare next to commands).
    static func decode(_ document: JSONDocument) throws(FormatError) -> ChainChange {
        var decoder = ChainDefinitionDecoder(document: document)
        let members = document.root.objectMembers
        func fail(_ path: String, _ expected: String, _ found: String) -> FormatError {
            document.error(at: path, expected: expected, found: found)
        }
        func name(_ key: String) throws(FormatError) -> String {
            guard let text = members[key]?.stringValue else {
                throw fail(key, "\"\(key)\" naming a handler", members[key]?.summary ?? "nothing")
            }
            return text
        }
        func handler(inRegistry: Bool) throws(FormatError) -> HandlerDefinition {
            guard let spec = members["handler"], case .object = spec else {
                throw fail(
                    "handler",
                    "\"handler\", a handler object as in a chain definition",
                    members["handler"]?.summary ?? "nothing"
                )
            }
            let made = decoder.decodeHandler(spec, at: "handler", inRegistry: inRegistry)
            if let problem = decoder.findings.first { throw problem.error }
            return made!
        }
        func optionalName(_ key: String) throws(FormatError) -> String? {
            guard let value = members[key], value != .null else { return nil }
            guard let text = value.stringValue else { throw fail(key, "a handler name or null", value.summary) }
            return text
        }
        let kinds = ["insert", "remove", "register", "deregister", "link"]
        // Each kind's members, and no others: a misspelt or misplaced member is an error, never ignored.
        let allowed: [String: Set<String>] = [
            "insert": ["change", "handler", "before", "after", "at", "next"], "remove": ["change", "handler"],
            "register": ["change", "registry", "handler"], "deregister": ["change", "registry", "handler"],
            "link": ["change", "handler", "next"],
        ]
        if let kind = members["change"]?.stringValue, let known = allowed[kind] {
            for key in members.keys.sorted() where !known.contains(key) {
                throw fail(
                    key,
                    "only \(known.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) in a \"\(kind)\" change",
                    "\"\(key)\""
                )
            }
        }
        switch members["change"]?.stringValue {
        case "insert"?:
            let made = try handler(inRegistry: false)
            let positions = ["before", "after", "at", "next"].filter(members.keys.contains)
            if positions.count > 1 {
                throw fail(
                    positions[1],
                    "one place for the handler: \"before\", \"after\", \"at\" or \"next\"",
                    "both \"\(positions[0])\" and \"\(positions[1])\""
                )
            }
            // The handler's own "next", written as a chain definition writes it: its place, as the change's "next"
            // would be — not dropped in silence while the handler went first or last.
            if let next = made.next {
                if let other = positions.first {
                    throw fail(
                        "handler.next",
                        "one place for the handler: its own \"next\" or the change's \"\(other)\"",
                        "both \"next\": \"\(next)\" and \"\(other)\""
                    )
                }
                var placed = made
                placed.next = nil
                return .add(placed, next: next)
            }
            if members["before"] != nil { return .insert(made, at: .before(try name("before"))) }
            if members["after"] != nil { return .insert(made, at: .after(try name("after"))) }
            if members.keys.contains("next") { return .add(made, next: try optionalName("next")) }
            switch members["at"]?.stringValue {
            case "first"?: return .insert(made, at: .first)
            case "last"?, nil: return .insert(made, at: .last)
            default: throw fail("at", "\"first\" or \"last\"", members["at"]!.summary)
            }
        case "remove"?:
            return .remove(try name("handler"))
        case "register"?:
            let registry = try name("registry")
            return .register(try handler(inRegistry: true), registry: registry)
        case "deregister"?:
            return .deregister(try name("handler"), registry: try name("registry"))
        case "link"?:
            return .link(try name("handler"), next: try optionalName("next"))
        default:
            throw fail(
                "change",
                "one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", "))",
                members["change"]?.summary ?? "nothing"
            )
        }
    }
}

extension ChainChangeDecoder {
    /// Where the change in `document` names its handlers and registries: its members that hold a name, and the
    /// new handler's own `name` and `next`.
    static func sites(of document: JSONDocument) -> ChangeSites {
        let members = document.root.objectMembers
        var sites = ChangeSites()
        func note(_ path: String, _ value: JSONValue?) {
            guard let name = value?.stringValue else { return }
            let (line, column) = document.position(of: path)
            sites.sites.append(.init(member: path, name: name, line: line, column: column))
        }
        note("handler", members["handler"])
        if let handler = members["handler"]?.objectMembers {
            note("handler.name", handler["name"])
            note("handler.next", handler["next"])
        }
        for key in ["before", "after", "next", "registry"] { note(key, members[key]) }
        return sites
    }
}

extension JSONValue {
    var objectMembers: [String: JSONValue] {
        if case .object(let members) = self { return members }
        return [:]
    }
}
