/// JSON text that could not be read: where, what was expected and what was found.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the problem within the text parsed.
    public var line: Int
    /// 1-based column (in bytes) of the problem.
    public var column: Int
    /// What the reader needed at that point.
    public var expected: String
    /// What it found instead.
    public var found: String

    public var description: String {
        "line \(line), column \(column): expected \(expected), found \(found)"
    }
}
