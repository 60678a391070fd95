import ChainTrace
import ChainTraceJSON

/// One problem a lint of a chain definition found.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// The definition cannot make a chain, or the chain cannot work as written.
        case error
        /// The chain works, but not as its author probably meant.
        case warning

        public static func < (left: Severity, right: Severity) -> Bool { left == .error && right == .warning }
    }

    /// How bad it is.
    public var severity: Severity
    /// A stable name for the kind of problem: `invalid-json`, `invalid-field`, `invalid-rule`, `unknown-handler`,
    /// `duplicate-name`, `cycle`, `unreachable`, `shadowed`, `never-accepts`.
    public var check: String
    /// Where, what was expected and what was found.
    public var error: FormatError
    /// The handler it is about, when there is one.
    public var handler: String?

    /// Creates a finding.
    public init(severity: Severity, check: String, error: FormatError, handler: String? = nil) {
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
        return VisibleText.escaped("\(location): \(severity.rawValue): expected \(error.expected), found \(error.found) [\(check)]")
    }
}
