/// The last line of a JSON-Lines file that its writer did not finish: reported, not fatal.
public struct TornTail: Sendable, Hashable, CustomStringConvertible {
    /// Its 1-based line number.
    public var line: Int
    /// How many bytes of it there are.
    public var byteCount: Int
    /// Why it does not parse.
    public var problem: String
    /// The file it is in, when a reader read several (a rotated log, a directory); `nil` for a single file.
    public var file: String? = nil

    /// Creates a torn tail.
    public init(line: Int, byteCount: Int, problem: String) {
        self.line = line
        self.byteCount = byteCount
        self.problem = problem
    }

    public var description: String {
        (file.map { "\($0): " } ?? "") + "line \(line) is incomplete (\(byteCount) bytes, no newline: the writer stopped mid-line); ignored"
    }
}
