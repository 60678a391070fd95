import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// Synchronous instrumented hops inside commands the recorder leaves out (its filter here; sampling the same),
/// generated: nestings of hops of two chains with commands of two types — side calls from one into the other at any
/// depth, admitted or not — run on their own or inside an async trace of one of the types. The traces recorded
/// are exactly what a plain model of the rules says: a command left out traces none of its hops, nor any side
/// call it makes; a side call from a traced command is a trace of its own if admitted; and a hop of the task's
/// async trace's type joins that trace wherever it runs — inside a left-out side call too, which is why a hop
/// inside a left-out command is told apart by one count only where no task's trace is open.
@Suite("Hops inside commands the recorder leaves out", .tags(.concurrent))
struct UntracedCommandHopsTests {
    struct Order: Sendable { var id: Int }
    struct Audit: Sendable { var id: Int }

    /// A hop: of an `Order` (chain "orders") or an `Audit` (chain "audit"); a child of the other type is a side
    /// call — a new command with its own id — and one of the same type is the next hop of the same command.
    final class Node: Sendable {
        let name: String
        let isOrder: Bool
        let id: Int
        let children: [Node]

        init(name: String, isOrder: Bool, id: Int, children: [Node]) {
            (self.name, self.isOrder, self.id, self.children) = (name, isOrder, id, children)
        }

        func run() {
            if isOrder {
                traceHop(name, command: Order(id: id), chain: "orders") { for child in children { child.run() } }
            } else {
                traceHop(name, command: Audit(id: id), chain: "audit") { for child in children { child.run() } }
            }
        }
    }

    static func tree(
        _ random: inout SeededGenerator,
        isOrder: Bool,
        id: Int,
        depth: Int,
        nextID: inout Int,
        count: inout Int
    ) -> Node {
        count += 1
        let name = "\(isOrder ? "O" : "A")\(count)"
        var children: [Node] = []
        if depth < 5 {
            for _ in 0..<Int.random(in: 0...(depth == 0 ? 3 : 2), using: &random) {
                if random.chance(0.5) {
                    children.append(
                        tree(&random, isOrder: isOrder, id: id, depth: depth + 1, nextID: &nextID, count: &count)
                    )
                } else {
                    nextID += 1
                    children.append(
                        tree(&random, isOrder: !isOrder, id: nextID, depth: depth + 1, nextID: &nextID, count: &count)
                    )
                }
            }
        }
        return Node(name: name, isOrder: isOrder, id: id, children: children)
    }

    /// The model: each trace's chain and its hops' names in the order they opened. `taskTrace` is the index of the
    /// task's async trace (of `Order`s) when the nesting runs inside one.
    struct Model {
        var traces: [(chain: String, names: [String])] = []
        let admitted: Set<Int>

        /// Visits `node` with `open` the thread's trace (and whether it is of orders), `untraced` whether a left-out
        /// command's hop is open here.
        mutating func visit(_ node: Node, open: (index: Int, isOrder: Bool)?, untraced: Bool, taskTrace: Int?) {
            var open = open
            var untraced = untraced
            if let current = open, current.isOrder == node.isOrder {
                traces[current.index].names.append(node.name)
            } else if open == nil, let taskTrace, node.isOrder {
                // Joins the task's trace; the thread's stays as it was (none).
                traces[taskTrace].names.append(node.name)
            } else {
                // A command's first hop here: a side call out of the thread's trace starts afresh.
                if open != nil { (open, untraced) = (nil, false) }
                if !untraced, admitted.contains(node.id) {
                    traces.append((node.isOrder ? "orders" : "audit", [node.name]))
                    open = (traces.count - 1, node.isOrder)
                } else {
                    untraced = true
                }
            }
            for child in node.children { visit(child, open: open, untraced: untraced, taskTrace: taskTrace) }
        }
    }

    static func summary(_ traces: [Trace]) -> [String] {
        traces.map { "\($0.chain): \($0.hops.map(\.handler).joined(separator: " "))" }.sorted()
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func tracesAreWhatTheModelSays(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        var nextID = 0
        var count = 0
        let roots = (0..<Int.random(in: 1...4, using: &random)).map { _ in
            nextID += 1
            return Self.tree(&random, isOrder: random.chance(0.5), id: nextID, depth: 0, nextID: &nextID, count: &count)
        }
        let admitted = Set((0...nextID).filter { _ in random.chance(0.5) })
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink) { (command: Any) in
            (command as? Order).map { admitted.contains($0.id) } ?? (command as? Audit).map { admitted.contains($0.id) }
                ?? false
        }
        var model = Model(admitted: admitted)
        let inTaskTrace = random.chance(0.5)
        if inTaskTrace {
            // The nestings run inside an async hop of an admitted order: its trace is the task's.
            model.traces.append(("orders", ["Task"]))
            for root in roots { model.visit(root, open: nil, untraced: false, taskTrace: 0) }
            let order = Order(id: nextID + 1)
            let recorderForTask = Recorder(sink: sink) { (command: Any) in
                (command as? Order).map { $0.id == order.id || admitted.contains($0.id) }
                    ?? (command as? Audit).map { admitted.contains($0.id) } ?? false
            }
            await ChainTracing.withRecorder(recorderForTask) {
                await traceHop("Task", command: order, chain: "orders") {
                    // An async body: the async hop, whose trace is the task's.
                    await Task.yield()
                    for root in roots { root.run() }
                }
            }
        } else {
            for root in roots { model.visit(root, open: nil, untraced: false, taskTrace: nil) }
            if random.chance(0.5) {
                // In a task with no trace.
                ChainTracing.withRecorder(recorder) { for root in roots { root.run() } }
            } else {
                // Outside any task, as on an app's main thread.
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    Thread {
                        ChainTracing.withRecorder(recorder) { for root in roots { root.run() } }
                        done.resume()
                    }.start()
                }
            }
        }
        #expect(
            Self.summary(sink.traces)
                == model.traces.map { "\($0.chain): \($0.names.joined(separator: " "))" }.sorted(),
            "seed \(seed), in a task's trace: \(inTaskTrace)"
        )
    }
}
