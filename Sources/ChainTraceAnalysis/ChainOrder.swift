/// The order a profile lists its handlers in: the chain's, as far as the links commands went along tell it.
///
/// Handlers are first met in the order the traces happen to reach them: a tree with several entries (a cell and a
/// toolbar both forwarding to the navigation), or a handler inserted at the front after the first commands, puts
/// a handler after handlers its commands went on to — a table listed `Cell` after `AppDelegate` when the first
/// command entered at `Toolbar`. Here every handler comes after each handler that passed commands to it; handlers
/// the links do not order keep the order first met (so a chain definition's declared order stands wherever the
/// traces do not contradict it), and a loop (a chain changed while it ran, a command caught going round) is entered
/// at its handler first met.
enum ChainOrder {
    /// The indices `0..<count` (handlers in the order first met) in chain order, given the links `(from, to)`
    /// between them.
    static func order(count: Int, links: [(from: Int, to: Int)]) -> [Int] {
        var successors = [[Int]](repeating: [], count: count)
        var predecessors = [Int](repeating: 0, count: count)
        for (from, to) in links where from != to && from >= 0 && from < count && to >= 0 && to < count {
            successors[from].append(to)
            predecessors[to] += 1
        }
        var ready = MinimumHeap()
        for index in 0..<count where predecessors[index] == 0 { ready.insert(index) }
        var placed = [Bool](repeating: false, count: count)
        var order: [Int] = []
        order.reserveCapacity(count)
        // The first handler not yet placed: where a loop is entered when nothing is ready.
        var unplaced = 0
        while order.count < count {
            let next: Int
            if let index = ready.removeMinimum() {
                guard !placed[index] else { continue }
                next = index
            } else {
                while placed[unplaced] { unplaced += 1 }
                next = unplaced
            }
            placed[next] = true
            order.append(next)
            for successor in successors[next] where !placed[successor] {
                predecessors[successor] -= 1
                if predecessors[successor] == 0 { ready.insert(successor) }
            }
        }
        return order
    }

    /// A binary heap of indices, smallest first.
    private struct MinimumHeap {
        private var items: [Int] = []

        mutating func insert(_ item: Int) {
            items.append(item)
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child] < items[parent] else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func removeMinimum() -> Int? {
            guard let last = items.popLast() else { return nil }
            guard !items.isEmpty else { return last }
            let minimum = items[0]
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < items.count else { break }
                let right = left + 1
                let smaller = right < items.count && items[right] < items[left] ? right : left
                guard items[smaller] < items[parent] else { break }
                items.swapAt(smaller, parent)
                parent = smaller
            }
            return minimum
        }
    }
}
