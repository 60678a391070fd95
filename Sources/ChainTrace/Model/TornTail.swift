/// The last line of a JSON-Lines file that its writer did not finish: reported, not fatal.
public struct TornTail: Sendable, Hashable, CustomStringConvertible {
    /// Its 1-based line number.
    public var line: Int
    /// How many bytes of it there are.
    public var byteCount: Int
    /// Why it does not parse.
    public var problem: String

    /// Creates a torn tail.
    public init(line: Int, byteCount: Int, problem: String) {
        self.line = line
        self.byteCount = byteCount
        self.problem = problem
    }

    public var description: String {
        "line \(line) is incomplete (\(byteCount) bytes, no newline: the writer stopped mid-line); ignored"
    }
}
