import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// Edits made in one go (`editingInOneGo`, how a chain definition builds its chain) leave the chain exactly as the
/// same edits made one by one: generated sequences of adds, links, inserts, removals and registrations, compared
/// by every node's path, the version, and the edits each chain told its recorder.
@Suite("Edits made in one go")
struct OneGoEditingTests {
    final class EditLog: TraceSink, @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String] = []
        func record(_ trace: Trace) {}
        func record(_ edit: ChainEdit) {
            lock.withLock { kept.append("\(edit.version) \(edit.kind) \(edit.handler) \(edit.detail ?? "")") }
        }
        var edits: [String] { lock.withLock { kept } }
    }

    static func handler(_ name: String) -> Handler<String, String> {
        Handler(name, canHandle: { $0 == name }) { $0 == name ? .accept(name) : .pass }
    }

    /// One generated edit, made on `chain`; errors (an unknown name, a duplicate) are part of the sequence too.
    static func edit(_ step: Int, _ chain: Chain<String, String>, names: [String], _ random: inout SeededGenerator) {
        let name = "N\(step)"
        let other = names.isEmpty ? "none" : random.pick(names)
        switch Int.random(in: 0...6, using: &random) {
        case 0: _ = try? chain.add(handler(name), next: random.chance(0.7) ? other : nil)
        case 1: _ = try? chain.insert(handler(name), at: random.pick([.first, .last, .before(other), .after(other)]))
        case 2: _ = try? chain.link(other, to: random.chance(0.8) ? random.pick(names + ["ghost"]) : nil)
        case 3: _ = try? chain.remove(other)
        case 4: _ = try? chain.addRegistry("R\(step)", at: .last)
        case 5:
            _ = try? chain.registry(random.pick(names + ["ghost"])).register(
                handler(name),
                weight: Int.random(in: 0...2, using: &random)
            )
        default: _ = try? chain.append(handler(name))
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func oneGoEqualsOneByOne(seed: UInt64) throws {
        let logs = (EditLog(), EditLog())
        let chains = (try Chain<String, String>("c"), try Chain<String, String>("c"))
        chains.0.recorder = Recorder(sink: logs.0)
        chains.1.recorder = Recorder(sink: logs.1)
        var streams = (SeededGenerator(seed: seed), SeededGenerator(seed: seed))
        var names: [String] = []
        let steps = Int.random(in: 1...40, using: &streams.0)
        _ = Int.random(in: 1...40, using: &streams.1)
        for step in 0..<steps {
            Self.edit(step, chains.0, names: names, &streams.0)
            names = chains.0.handlerNames + ["N\(step)", "R\(step)"]
        }
        names = []
        chains.1.editingInOneGo {
            for step in 0..<steps {
                Self.edit(step, chains.1, names: names, &streams.1)
                names = chains.1.handlerNames + ["N\(step)", "R\(step)"]
            }
        }
        #expect(chains.0.version == chains.1.version, "seed \(seed)")
        #expect(chains.0.path() == chains.1.path() && chains.0.handlerNames == chains.1.handlerNames, "seed \(seed)")
        #expect(logs.0.edits == logs.1.edits, "seed \(seed)")
        for name in chains.0.handlerNames {
            #expect(chains.0.path(from: name) == chains.1.path(from: name), "seed \(seed): from \(name)")
            #expect(
                (try? chains.0.whoWouldHandle(name).path) == (try? chains.1.whoWouldHandle(name).path),
                "seed \(seed): \(name)"
            )
        }
    }
}
