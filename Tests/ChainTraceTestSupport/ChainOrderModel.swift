/// The order a profile should list handlers in, written out plainly for tests: each handler after every handler
/// a trace went from straight to it, else in the order first met; where a loop leaves none ready, the first met
/// of those left.
public enum ChainOrderModel {
    /// `paths` (each trace's handlers, in order) reordered: the handlers of `declared` first met, in that order,
    /// then the others as the paths meet them.
    public static func order(paths: [[String]], declared: [String] = []) -> [String] {
        var met: [String] = []
        for name in declared + paths.flatMap({ $0 }) where !met.contains(name) { met.append(name) }
        var before: [String: Set<String>] = [:]
        for path in paths {
            for (from, to) in zip(path, path.dropFirst()) where from != to { before[to, default: []].insert(from) }
        }
        var placed: [String] = []
        while placed.count < met.count {
            let left = met.filter { !placed.contains($0) }
            let ready = left.filter { (before[$0] ?? []).allSatisfy(placed.contains) }
            placed.append(ready.first ?? left[0])
        }
        return placed
    }
}
