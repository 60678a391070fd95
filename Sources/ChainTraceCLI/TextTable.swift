/// A table printed with aligned columns: text left-aligned, numbers right-aligned.
struct TextTable {
    enum Alignment { case left, right }

    var headers: [String]
    var alignments: [Alignment]
    var rows: [[String]] = []
    /// Colour applied to a whole row after alignment (so escape codes never break the columns).
    var rowStyles: [((String) -> String)?] = []

    init(_ columns: [(String, Alignment)]) {
        headers = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    /// Adds a row; every cell is data, shown escaped (``TerminalText/shown(_:)``) so it cannot act on the terminal
    /// or break the columns.
    mutating func add(_ row: [String], style: ((String) -> String)? = nil) {
        rows.append(row.map(TerminalText.shown))
        rowStyles.append(style)
    }

    func render(style: Style, indent: String = "  ") -> String {
        // Columns as the terminal counts them: a CJK name or an emoji takes two, a combining mark none.
        var widths = headers.map(TerminalText.width)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], TerminalText.width(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[index] - TerminalText.width(cell)))
                let isLast = index == cells.count - 1
                switch alignments[index] {
                case .left: parts.append(isLast ? cell : cell + padding)
                case .right: parts.append(padding + cell)
                }
            }
            return indent + parts.joined(separator: "  ")
        }
        var output = style.bold(line(headers)) + "\n"
        for (row, rowStyle) in zip(rows, rowStyles) {
            let text = line(row)
            output += (rowStyle.map { $0(text) } ?? text) + "\n"
        }
        return output
    }
}
