/// How many commands went along each link between handlers, counted on every hop of every trace profiled.
///
/// Kept flat — one array per column, each handler's links chained through `nextLink` — so counting a hop is a
/// short scan of a handler's few links and one increment, with no nested array to make unique first.
struct LinkCounts: Sendable {
    /// Node 0 is a command's arrival; node `i + 1` is handler `i`.
    private var firstLink: [Int32] = [-1]
    private var targets: [Int32] = []
    private var counts: [Int] = []
    private var nextLink: [Int32] = []

    /// Makes room for one more handler.
    mutating func addNode() {
        firstLink.append(-1)
    }

    /// Counts one command going from node `from` to handler `to`.
    @inline(__always)
    mutating func count(from: Int, to: Int) {
        var link = Int(firstLink[from])
        while link >= 0 {
            if targets[link] == to {
                counts[link] += 1
                return
            }
            link = Int(nextLink[link])
        }
        targets.append(Int32(to))
        counts.append(1)
        nextLink.append(firstLink[from])
        firstLink[from] = Int32(targets.count - 1)
    }

    /// Every link with its count: `from` is the node (0 for the arrival), `to` the handler.
    func forEach(_ body: (_ from: Int, _ to: Int, _ count: Int) -> Void) {
        for (from, first) in firstLink.enumerated() {
            var link = Int(first)
            while link >= 0 {
                body(from, Int(targets[link]), counts[link])
                link = Int(nextLink[link])
            }
        }
    }
}
