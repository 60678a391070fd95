import ChainTrace

/// The names one chain's traces met so far in a log, in the order met, as the one list those traces share — as
/// a recorded chain's traces share its handler names. Both log readers keep one per chain: the compact one per
/// segment, the version 1 fast path per reader (``TraceLineNames``). A reader numbers every name it meets; this
/// maps those numbers to places in the chain's list, adding a name the first time the chain meets it.
struct ChainNameList {
    /// The chain's name.
    let chain: String
    private var names: [String] = []
    /// For each name number of the reader, its index in `names`, or -1.
    private var local: [Int] = []
    /// For a list of one trace's names: each of their reader's numbers, with its index in `names`. (`local` would
    /// grow to the reader's highest number for every such trace: `stats` of a compact log of 200 000 traces among
    /// 50 000 handler names spent 41% of its time there.)
    private var sparse: [Int: Int]?
    private var shared: SharedTraceNames
    private var isStale = false
    /// The lists this one hands out only grow: each starts with the names of the ones before.
    private let lineage = NameLineage()

    /// An empty list for the chain called `chain`; `ofOneTrace` for the names of one trace alone, which does not
    /// share a list (see ``holds(_:)``).
    init(chain: String, ofOneTrace: Bool = false) {
        self.chain = chain
        shared = SharedTraceNames(chain: chain, names: [])
        if ofOneTrace { sparse = [:] }
    }

    /// The most names a list shares. Each name added makes a new shared list, a copy of the one before, so that
    /// a log naming a handler of its own in every trace (names holding an id) would copy every name once per trace
    /// — quadratic. Past this size a trace naming a handler the list lacks gets a list of its own instead
    /// (``holds(_:)``); the shared list stays as it is for the traces whose names it holds.
    static let sharedLimit = 4096

    /// Whether the list holds the reader's name `number`, or has room for it.
    func holds(_ number: Int) -> Bool {
        names.count < Self.sharedLimit || (number < local.count && local[number] >= 0)
    }

    /// The index in the list of the reader's name `number` (one of `strings`), added the first time.
    mutating func index(of number: Int, in strings: [String]) -> Int {
        if sparse != nil {
            if let index = sparse![number] { return index }
            names.append(strings[number])
            sparse![number] = names.count - 1
            isStale = true
            return names.count - 1
        }
        if number < local.count, local[number] >= 0 { return local[number] }
        while local.count <= number { local.append(-1) }
        names.append(strings[number])
        local[number] = names.count - 1
        isStale = true
        return names.count - 1
    }

    /// The list as it is now, for a trace to share: the same value until a name is added.
    mutating func current() -> SharedTraceNames {
        if isStale {
            shared = SharedTraceNames(chain: chain, names: names, lineage: lineage)
            isStale = false
        }
        return shared
    }
}
