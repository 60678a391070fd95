/// Why Graphviz could not lay out or draw a diagram, with its own messages captured (never left on stderr).
public struct GraphvizError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The DOT text did not parse.
        case syntax
        /// The layout engine or an output plugin is not installed or not configured.
        case pluginMissing(String)
        /// Layout failed.
        case layout
        /// Drawing in the format failed.
        case render
        /// The picture would be bigger than the format can hold, so it would be scaled down unreadably.
        case tooLarge(widthPixels: Int, heightPixels: Int, limit: Int)
    }

    /// What went wrong.
    public var kind: Kind
    /// Graphviz's messages, in order, as it wrote them (`Error: syntax error in line 3 near '}'`).
    public var messages: [String]

    /// Creates an error.
    public init(kind: Kind, messages: [String]) {
        self.kind = kind
        self.messages = messages
    }

    /// What went wrong and what to do about it, with Graphviz's messages.
    public var description: String {
        let detail = messages.isEmpty ? "" : ": " + messages.joined(separator: "; ")
        switch kind {
        case .syntax:
            return "Graphviz could not read the DOT text\(detail)"
        case .pluginMissing(let plugin):
            return """
                Graphviz has no \(plugin) plugin here\(detail). Install libgraphviz-dev (apt) or graphviz (brew); \
                if it is installed, its plugin configuration is missing — run `dot -c` (or \
                /usr/sbin/libgvc6-config-update) as root, or set GVBINDIR to the plugin directory
                """
        case .layout:
            return "Graphviz could not lay the diagram out\(detail)"
        case .render:
            return "Graphviz could not draw the diagram\(detail)"
        case .tooLarge(let width, let height, let limit):
            return """
                the diagram would be \(width)×\(height) px, over the \(limit) px a PNG side can hold, so it would be \
                scaled to an unreadable strip; write SVG or PDF instead, or show fewer handlers \
                (a handler limit, a focus, or handlers to ignore)
                """
        }
    }
}
