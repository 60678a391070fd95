/// What a diagram is written as.
public enum GraphvizFormat: String, Sendable, Hashable, CaseIterable {
    /// Graphviz's own language, made in pure Swift; needs no library at run time.
    case dot
    /// Scalable Vector Graphics, laid out and drawn by libgvc in-process.
    case svg
    /// A raster image (cairo), at 96 dpi.
    case png
    /// A vector document (cairo).
    case pdf

    /// The format named by a file's extension (`chain.svg` → `.svg`), if it is one of these.
    public init?(fileExtension path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}
