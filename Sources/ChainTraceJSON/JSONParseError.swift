import ChainTrace

/// JSON text that could not be read: where, what was expected and what was found.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the problem within the text parsed.
    package var line: Int
    /// 1-based column (in bytes) of the problem.
    package var column: Int
    /// What the reader needed at that point.
    package var expected: String
    /// What it found instead.
    package var found: String

    package var description: String {
        "line \(line), column \(column): expected \(expected), found \(found)"
    }
}
