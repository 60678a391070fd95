public import ChainTraceAnalysis

/// What a diagram shows and how it folds a big chain.
public struct DiagramOptions: Sendable, Hashable {
    /// A straight run of more handlers than this is folded into rows of this many, so a 1000-handler chain is
    /// a block of rows rather than a strip.
    public var rowLength: Int
    /// At most this many handlers are drawn in profile and diff diagrams: the ones with the most self time; the
    /// others are hidden, with a note saying how many. `nil` draws all of them.
    public var maximumHandlers: Int?
    /// When not empty, only these handlers and their direct neighbours are drawn.
    public var focus: [String]
    /// Handlers never drawn; links through them are drawn dashed, saying how many were skipped.
    public var ignore: [String]
    /// The slow-handler rule profile diagrams flag with.
    public var slowRule: SlowHandlerRule

    /// Rows of 10, at most 80 handlers in profiles (as pprof's default node count), no focus, the standard rule.
    public init(
        rowLength: Int = 10,
        maximumHandlers: Int? = 80,
        focus: [String] = [],
        ignore: [String] = [],
        slowRule: SlowHandlerRule = .standard
    ) {
        self.rowLength = max(rowLength, 2)
        self.maximumHandlers = maximumHandlers.map { max($0, 1) }
        self.focus = focus
        self.ignore = ignore
        self.slowRule = slowRule
    }
}
