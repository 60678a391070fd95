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
    /// What stopped the reader, for a caller that words it for its own kind of input (a line of JSON Lines, a
    /// whole document).
    package var stop = Stop.other

    /// What stopped the reader, where that says something about the input's layout.
    package enum Stop: Sendable, Hashable {
        /// Anything else.
        case other
        /// The text ended where the value needed more.
        case endOfText
        /// A whole value was followed by the start of another object or array.
        case anotherValue
    }

    package var description: String {
        "line \(line), column \(column): expected \(expected), found \(found)"
    }
}
