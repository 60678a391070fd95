/// A Graphviz graph as data, written out as DOT deterministically: the same graph always gives the same bytes.
///
/// Node identifiers are generated (`n0`, `n1`, …); handler names only ever appear inside labels and tooltips,
/// escaped by ``DOTText``, so no name can break the file or inject markup into an SVG.
public struct DOTGraph: Sendable, Hashable {
    /// One node.
    public struct Node: Sendable, Hashable {
        /// Its identifier in the file.
        public var id: String
        /// Its attributes.
        public var attributes: [Attribute]
    }

    /// One edge.
    public struct Edge: Sendable, Hashable {
        /// The node it leaves.
        public var from: String
        /// The node it reaches.
        public var to: String
        /// Its attributes.
        public var attributes: [Attribute]
    }

    /// A subgraph: a cluster drawn with a frame, or a group of nodes kept on one rank.
    public struct Subgraph: Sendable, Hashable {
        /// Its identifier; one starting with `cluster` is drawn as a frame.
        public var id: String
        /// Its graph attributes.
        public var attributes: [Attribute]
        /// The identifiers of the nodes it holds (declared in the main graph).
        public var nodeIDs: [String]
    }

    /// One `name=value` pair.
    public struct Attribute: Sendable, Hashable {
        /// The attribute's name (`label`, `shape`, …).
        public var name: String
        /// Its value.
        public var value: DOTValue

        /// Creates an attribute.
        public init(_ name: String, _ value: DOTValue) {
            self.name = name
            self.value = value
        }
    }

    /// Graph attributes.
    public var attributes: [Attribute] = []
    /// Attributes every node starts with.
    public var nodeDefaults: [Attribute] = []
    /// Attributes every edge starts with.
    public var edgeDefaults: [Attribute] = []
    /// Nodes, in the order written.
    public var nodes: [Node] = []
    /// Edges, in the order written.
    public var edges: [Edge] = []
    /// Subgraphs, in the order written.
    public var subgraphs: [Subgraph] = []

    /// An empty graph.
    public init() {}

    /// Adds a node. An attribute given twice keeps its last value, where the first stood: Graphviz reads a list
    /// that repeats a name the same way, and the file then names each once.
    public mutating func addNode(_ id: String, _ attributes: [Attribute]) {
        nodes.append(Node(id: id, attributes: Self.once(attributes)))
    }

    /// Adds an edge. An attribute given twice keeps its last value, as for ``addNode(_:_:)``.
    public mutating func addEdge(from: String, to: String, _ attributes: [Attribute]) {
        edges.append(Edge(from: from, to: to, attributes: Self.once(attributes)))
    }

    /// `attributes` with each name once: its last value, at its first place.
    static func once(_ attributes: [Attribute]) -> [Attribute] {
        var result: [Attribute] = []
        var place: [String: Int] = [:]
        for attribute in attributes {
            if let index = place[attribute.name] {
                result[index].value = attribute.value
            } else {
                place[attribute.name] = result.count
                result.append(attribute)
            }
        }
        return result
    }

    /// The graph as DOT text.
    public var text: String {
        var out = "digraph chaintrace {\n"
        for attribute in attributes { out += "  \(attribute.name)=\(attribute.value.text);\n" }
        if !nodeDefaults.isEmpty { out += "  node \(Self.list(nodeDefaults));\n" }
        if !edgeDefaults.isEmpty { out += "  edge \(Self.list(edgeDefaults));\n" }
        for node in nodes { out += "  \(node.id)\(node.attributes.isEmpty ? "" : " " + Self.list(node.attributes));\n" }
        for subgraph in subgraphs {
            out += "  subgraph \(subgraph.id) {\n"
            for attribute in subgraph.attributes { out += "    \(attribute.name)=\(attribute.value.text);\n" }
            if !subgraph.nodeIDs.isEmpty { out += "    " + subgraph.nodeIDs.joined(separator: "; ") + ";\n" }
            out += "  }\n"
        }
        for edge in edges {
            out += "  \(edge.from) -> \(edge.to)\(edge.attributes.isEmpty ? "" : " " + Self.list(edge.attributes));\n"
        }
        return out + "}\n"
    }

    private static func list(_ attributes: [Attribute]) -> String {
        "[" + attributes.map { "\($0.name)=\($0.value.text)" }.joined(separator: ", ") + "]"
    }
}

/// An attribute value: quoted text, an HTML-like label, or a bare number/keyword.
public enum DOTValue: Sendable, Hashable, ExpressibleByStringLiteral {
    /// Text, written quoted and escaped (``DOTText/quoted(_:)``).
    case text(String)
    /// An HTML-like label built with ``DOTText/html(_:)`` for every piece of user text; written between `<` and `>`
    /// — or, empty, as the empty quoted string: Graphviz rejects an empty HTML-like label as a syntax error.
    case html(String)
    /// A number or keyword written as is (`LR`, `1.5`, `true`). Only for values the renderer chooses.
    case bare(String)

    /// A quoted text value.
    public init(stringLiteral value: String) { self = .text(value) }

    /// A number, written with at most three decimals.
    public static func number(_ value: Double) -> DOTValue { .bare(DOTText.number(value)) }

    var text: String {
        switch self {
        case .text(let text): DOTText.quoted(text)
        case .html(let html): html.isEmpty ? "\"\"" : "<" + html + ">"
        case .bare(let bare): bare
        }
    }
}
