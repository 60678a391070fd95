import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

/// One problem a lint of a chain definition found.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible, Encodable {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable, Comparable, Codable {
        /// The definition cannot make a chain, or the chain cannot work as written.
        case error
        /// The chain works, but not as its author probably meant.
        case warning

        public static func < (left: Severity, right: Severity) -> Bool { left == .error && right == .warning }
    }

    /// The kind of problem; its raw value is the stable name reports print (`unknown-handler`).
    public enum Check: String, Sendable, Hashable, CaseIterable, CustomStringConvertible, Codable {
        /// The file is not JSON.
        case invalidJSON = "invalid-json"
        /// A member is missing, misspelt or of the wrong type.
        case invalidField = "invalid-field"
        /// A rule cannot be read: an unknown test, a bad regular expression, `max` below `min`.
        case invalidRule = "invalid-rule"
        /// A `next`, entry or member names no handler of the definition.
        case unknownHandler = "unknown-handler"
        /// Two handlers or registries share a name.
        case duplicateName = "duplicate-name"
        /// Following `next` comes back to a handler already passed.
        case cycle
        /// No entry's path reaches the handler.
        case unreachable
        /// Every command the handler accepts is taken by a handler before it.
        case shadowed
        /// The handler's rule accepts no command at all.
        case neverAccepts = "never-accepts"

        /// The stable name, as reports print it.
        public var description: String { rawValue }
    }

    /// How bad it is.
    public var severity: Severity
    /// The kind of problem.
    public var check: Check
    /// Where, what was expected and what was found.
    public var error: FormatError
    /// The handler it is about, when there is one.
    public var handler: String?

    /// Creates a finding.
    public init(severity: Severity, check: Check, error: FormatError, handler: String? = nil) {
        self.severity = severity
        self.check = check
        self.error = error
        self.handler = handler
    }

    /// `file:line:column: error: expected …, found … [check]`.
    public var description: String {
        var location = error.file
        if error.line > 0 { location += ":\(error.line)" }
        if error.column > 0 { location += ":\(error.column)" }
        // Quoted data shown escaped, as in FormatError's description: one line that never acts on a terminal.
        return VisibleText.escaped(
            "\(location): \(severity.rawValue): expected \(error.expected), found \(error.found) [\(check.rawValue)]"
        )
    }

    private enum CodingKeys: String, CodingKey {
        case severity, check, file, line, column, expected, found, message, handler
    }

    /// Severity, check, file, line, column, expected, found, the one-line message, and the handler when there is
    /// one — what `chaintrace validate --format json` lists.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity, forKey: .severity)
        try container.encode(check, forKey: .check)
        try container.encode(error.file, forKey: .file)
        try container.encode(error.line, forKey: .line)
        try container.encode(error.column, forKey: .column)
        try container.encode(error.expected, forKey: .expected)
        try container.encode(error.found, forKey: .found)
        try container.encode(description, forKey: .message)
        try container.encodeIfPresent(handler, forKey: .handler)
    }
}
