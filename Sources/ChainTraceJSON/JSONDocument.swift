/// A JSON file read whole, which remembers where each of its values starts so that errors about what a value
/// *means* (an unknown handler, a bad rule) can name its line and column, not only errors of syntax.
///
/// Paths name values the way JavaScript would: `handlers[2].accepts.field`.
package struct JSONDocument: Sendable {
    /// The file, as errors name it.
    package let file: String
    /// The parsed value.
    package let root: JSONValue
    private let offsets: [String: Int]
    private let lineStarts: [Int]
    private let firstLine: Int

    /// Parses `bytes`; `file` stands for the file in errors, `firstLine` is the line number of the first byte.
    package init(bytes: [UInt8], file: String, firstLine: Int = 1) throws(FormatError) {
        self.file = file
        self.firstLine = firstLine
        let parsed: Result<(JSONValue, [String: Int]), JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try JSONParser.parseDocument(buffer) }
        }
        switch parsed {
        case .success(let (root, offsets)):
            self.root = root
            self.offsets = offsets
        case .failure(let error):
            var found = error.found
            if error.stop == .anotherValue, error.column == 1 {
                // A second value at the start of a line: JSON Lines, as trace logs and command streams are.
                found =
                    "\(found), a second value (JSON Lines, one value a line, as a trace log or a command stream holds)"
            }
            throw FormatError(
                file: file,
                line: error.line + firstLine - 1,
                column: error.column,
                expected: error.expected,
                found: found
            )
        }
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The 1-based line and column where the value at `path` starts; the closest enclosing value's position
    /// when `path` itself is absent (a missing member is reported where its object starts).
    package func position(of path: String) -> (line: Int, column: Int) {
        var path = path
        while offsets[path] == nil, !path.isEmpty {
            if let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) {
                path = String(path[..<cut])
            } else {
                path = ""
            }
        }
        let offset = offsets[path] ?? 0
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + firstLine, offset - lineStarts[low] + 1)
    }

    /// An error about the value at `path`.
    package func error(at path: String, expected: String, found: String) -> FormatError {
        let (line, column) = position(of: path)
        return FormatError(file: file, line: line, column: column, expected: expected, found: found)
    }
}
