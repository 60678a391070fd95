import ChainTrace
import ChainTraceJSON

/// A regular expression from a chain definition, compiled once when the definition is read.
///
/// Equal when their source text is equal.
public struct Pattern: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let source: String
    private let compiled: CompiledRegex

    /// Compiles `source` (Swift `Regex` syntax, which accepts the common PCRE forms).
    ///
    /// - Throws: The compiler's complaint, when `source` is not a valid expression.
    public init(_ source: String) throws {
        self.source = source
        compiled = CompiledRegex(try Regex(source))
        // `Regex` compiles its program on its first match, and the runtime sets up what a match returns on the
        // first that succeeds: both made to happen here, so that the first commands a replay tests are not charged
        // for them (~150 µs, which flagged the handler slow in a short replay).
        _ = Self.firstMatchMade
        _ = try? compiled.regex.firstMatch(in: "")
    }

    /// One successful match, once per process.
    private static let firstMatchMade: Bool = (try? Regex("a").firstMatch(in: "a")) != nil

    /// Whether the expression matches somewhere in `text`.
    public func matches(_ text: String) -> Bool {
        (try? compiled.regex.firstMatch(in: text)) != nil
    }

    public var description: String { source }

    public static func == (left: Pattern, right: Pattern) -> Bool { left.source == right.source }

    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// Holds a compiled regular expression so a ``Pattern`` can cross threads.
///
/// `@unchecked Sendable`: the regex is created once and only read after; `Regex` is a value type with no shared
/// mutable state, it is only not declared `Sendable` because its output type parameter might not be.
private final class CompiledRegex: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>

    init(_ regex: Regex<AnyRegexOutput>) {
        self.regex = regex
    }
}
