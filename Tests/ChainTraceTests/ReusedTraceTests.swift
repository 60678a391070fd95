import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// A thread reuses its last synchronous instrumented trace for the next command (its memory, and its name table
/// when the names are the same). Nothing of one command may leak into the next, and a trace kept for reuse may
/// keep no recorder or sink alive.
@Suite("Reused instrumented traces")
struct ReusedTraceTests {
    struct Order: TracedCommand, Sendable {
        var number: Int
        var commandKind: String { number % 3 == 0 ? "Refund" : "Order" }
        var commandID: String? { number % 2 == 0 ? "order-\(number)" : nil }
        var commandPayload: JSONValue? { ["number": .integer(Int64(number))] }
    }

    /// A generated protocol chain: handler `i` takes orders whose number is a multiple of `divisors[i]`.
    static func handle(_ order: Order, at index: Int, divisors: [Int], chain: String) -> String? {
        guard index < divisors.count else { return nil }
        return traceHop("H\(index)", command: order, chain: chain) {
            order.number % divisors[index] == 0
                ? "H\(index)" : handle(order, at: index + 1, divisors: divisors, chain: chain)
        }
    }

    /// Commands sent one after another on one thread, under recorders that alternate between capturing payloads
    /// and not, through chains of different names and lengths: each trace has its own command's kind, id,
    /// payload, chain and path, as a fresh trace would.
    @Test(arguments: SeededGenerator.seeds(30))
    func eachTraceDescribesItsOwnCommand(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let capturing = InMemoryTraceSink()
        let plain = InMemoryTraceSink()
        let capturingRecorder = Recorder(sink: capturing, payloads: .captured)
        let plainRecorder = Recorder(sink: plain)
        var expected: [(captured: Bool, order: Order, chain: String, path: [String])] = []
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            let order = Order(number: Int.random(in: 0...1000, using: &random))
            let divisors = (0..<Int.random(in: 1...6, using: &random)).map { _ in Int.random(in: 1...7, using: &random)
            }
            let chain = random.chance(0.5) ? "orders" : "refunds"
            let captured = random.chance(0.5)
            let taker = divisors.firstIndex { order.number % $0 == 0 }
            let path = (0...(taker ?? divisors.count - 1)).map { "H\($0)" }
            ChainTracing.withRecorder(captured ? capturingRecorder : plainRecorder) {
                _ = Self.handle(order, at: 0, divisors: divisors, chain: chain)
            }
            expected.append((captured, order, chain, path))
        }
        var capturedTraces = capturing.traces.makeIterator()
        var plainTraces = plain.traces.makeIterator()
        for (captured, order, chain, path) in expected {
            guard let trace = captured ? capturedTraces.next() : plainTraces.next() else {
                Issue.record("seed \(seed): a trace is missing")
                return
            }
            #expect(trace.commandKind == order.commandKind, "seed \(seed)")
            #expect(trace.commandID == order.commandID, "seed \(seed)")
            #expect(trace.payload == (captured ? order.commandPayload : nil), "seed \(seed)")
            #expect(trace.chain == chain, "seed \(seed)")
            #expect(trace.path == path, "seed \(seed)")
        }
    }

    /// A sink is freed once its recorder is gone, though the thread that recorded into it keeps its last trace
    /// for reuse.
    @Test func aTraceKeptForReuseKeepsNoSinkAlive() {
        weak var released: InMemoryTraceSink?
        do {
            let sink = InMemoryTraceSink()
            released = sink
            ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) {
                _ = Self.handle(Order(number: 4), at: 0, divisors: [3, 2], chain: "orders")
            }
            #expect(sink.traces.count == 1)
        }
        #expect(released == nil)
    }
}
