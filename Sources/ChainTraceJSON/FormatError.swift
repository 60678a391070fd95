#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file in one of ChainTrace's formats (a trace log, a JSON-Lines stream) that could not be read or written:
/// which file, where in it, what was expected, what was found.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, or a name for the bytes read (`<memory>`).
    public var file: String
    /// 1-based line, or 0 when the problem is not at a line (the file could not be opened).
    public var line: Int
    /// 1-based byte column, or 0 when not known more precisely than the line.
    public var column: Int
    /// What was needed.
    public var expected: String
    /// What was there instead.
    public var found: String

    /// Creates an error.
    public init(file: String, line: Int, column: Int, expected: String, found: String) {
        self.file = file
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
    }

    /// A failed system call on `file`: `expected` what was being done, found the system's explanation of `code`.
    package static func system(file: String, line: Int = 0, expected: String, code: Int32) -> FormatError {
        FormatError(file: file, line: line, column: 0, expected: expected, found: String(cString: strerror(code)))
    }

    /// `file:line:column: expected …, found …`, the form editors and terminals link to. Data quoted in it (a
    /// name, a string from the file) is shown escaped (`VisibleText`), so the message stays on one line and
    /// never acts on a terminal; the fields themselves keep it exactly.
    public var description: String {
        var location = file
        if line > 0 { location += ":\(line)" }
        if column > 0 { location += ":\(column)" }
        return VisibleText.escaped("\(location): expected \(expected), found \(found)")
    }
}
