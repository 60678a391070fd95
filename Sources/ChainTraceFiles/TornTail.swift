import ChainTraceJSON

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

    /// A file of a log of several that holds no line: its writer stopped before writing the header.
    public static let emptyFile = TornTail(
        line: 1,
        byteCount: 0,
        problem: "no line: the writer stopped before writing its header"
    )

    public var description: String {
        let file = file.map { "\($0): " } ?? ""
        if line == 1, byteCount == 0 {
            return file + "holds no line (the writer stopped before writing its header); ignored"
        }
        return file
            + "line \(line) is incomplete (\(byteCount) bytes, no newline: the writer stopped mid-line); ignored"
    }
}
