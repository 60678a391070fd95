import ChainTraceJSON

extension JSONDocument {
    /// Reads and parses the file at `path`.
    package init(path: String) throws(FormatError) {
        try self.init(bytes: try FileBytes.read(path), file: path)
    }
}
