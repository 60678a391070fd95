/// Where to put a handler in a chain, in SwiftNIO's `ChannelPipeline` vocabulary.
public enum ChainPosition: Sendable, Hashable {
    /// At the head: the chain's default entry.
    case first
    /// After the last handler of the default entry's path.
    case last
    /// Just before the named handler: everything that led to it now leads to the new handler.
    case before(String)
    /// Just after the named handler.
    case after(String)
}

extension ChainPosition {
    /// The position as an edit record's detail says it.
    var editDetail: String {
        switch self {
        case .first: "first"
        case .last: "last"
        case .before(let name): "before \(name)"
        case .after(let name): "after \(name)"
        }
    }
}
