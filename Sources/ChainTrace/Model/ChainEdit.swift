/// One change made to a running chain — a handler inserted, removed or relinked, a member registered — as a
/// recorder's sink receives it, so that a trace log says what chain its traces ran on.
///
/// ```swift
/// try chain.insert(Handler("Audit") { _ in .pass }, at: .first)
/// // the chain's sink gets ChainEdit(chain: "orders", version: 4, kind: .insert, handler: "Audit", detail: "first")
/// ```
public struct ChainEdit: Sendable, Hashable, CustomStringConvertible {
    /// What kind of change it was.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A handler or registry added at a position of the default path.
        case insert
        /// A node added to a tree, forwarding to a named node.
        case add
        /// A handler or registry removed.
        case remove
        /// A handler put in another's place.
        case replace
        /// A node made to forward elsewhere.
        case link
        /// A member registered in a registry.
        case register
        /// A member taken out of a registry.
        case deregister
    }

    /// The chain's name.
    public var chain: String
    /// The chain's version after the change (traces with this ``Trace/chainVersion`` ran on the changed chain).
    public var version: Int
    /// What kind of change it was.
    public var kind: Kind
    /// The handler, registry or member changed.
    public var handler: String
    /// Where or how: the position (`first`, `last`, `before X`, `after X`), the node it forwards to (`next X`,
    /// `next nothing`), or the registry and weight (`in R, weight 10`).
    public var detail: String?
    /// Wall-clock time of the change, in nanoseconds since 1970-01-01 UTC.
    public var time: Int64

    /// Creates an edit record.
    public init(chain: String, version: Int, kind: Kind, handler: String, detail: String? = nil, time: Int64 = 0) {
        self.chain = chain
        self.version = version
        self.kind = kind
        self.handler = handler
        self.detail = detail
        self.time = time
    }

    /// `orders v4: insert Audit (first)`.
    public var description: String {
        "\(chain) v\(version): \(kind.rawValue) \(handler)" + (detail.map { " (\($0))" } ?? "")
    }
}
