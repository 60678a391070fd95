/// The files of a log as one line of text names them: all of them, comma-separated, when there are a few; else
/// the first two, how many more, and the last — a shell's `logs/*.jsonl` can give hundreds, and a header, a
/// warning or a report's title line listing them all said nothing more: `a-0001.jsonl, a-0002.jsonl, … (197 more),
/// a-0200.jsonl`.
package enum FileListText {
    /// `files` named in one line.
    package static func listed(_ files: [String]) -> String {
        guard files.count > 4 else { return files.joined(separator: ", ") }
        return "\(files[0]), \(files[1]), … (\(files.count - 3) more), \(files[files.count - 1])"
    }
}
