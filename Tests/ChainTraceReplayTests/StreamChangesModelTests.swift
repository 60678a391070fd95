import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Command streams that change the chain as they go — inserting handlers at every position, removing them,
/// registering late responders with tied weights and deregistering them — replayed, against a plain list kept
/// beside them: every command takes the path the list says at its line, and each trace records the chain version
/// after the changes before it.
@Suite("Stream changes against a model")
struct StreamChangesModelTests {
    /// The model: the chain's top-level names in order; the registry "R" with its members (name, weight, age).
    struct Model {
        var order: [String]
        var members: [(name: String, weight: Int, age: Int)]

        var fullPath: [String] {
            order.flatMap { name -> [String] in
                name == "R" ? ["R"] + members.sorted { ($0.weight, $0.age) > ($1.weight, $1.age) }.map(\.name) : [name]
            }
        }
    }

    static func handlerObject(_ name: String, weight: Int? = nil) -> String {
        let weightMember = weight.map { #","weight":\#($0)"# } ?? ""
        return #"{"name":"\#(name)","accepts":{"kind":["K\#(name)"]}\#(weightMember)}"#
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func everyCommandTakesThePathTheModelSaysAtItsLine(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let base = (0..<Int.random(in: 1...4, using: &random)).map { "B\($0)" }
        var handlers = base.enumerated().map { index, name in
            let next = index + 1 < base.count ? #","next":"\#(base[index + 1])""# : #","next":"R""#
            return #"{"name":"\#(name)","accepts":{"kind":["K\#(name)"]}\#(next)}"#
        }
        handlers.append(#"{"name":"R","registry":[\#(Self.handlerObject("R0", weight: 1))]}"#)
        let definition = try ChainDefinition.load(
            bytes: Array(#"{"chain":"changing","handlers":[\#(handlers.joined(separator: ","))]}"#.utf8),
            file: "c.json"
        )
        var model = Model(order: base + ["R"], members: [("R0", 1, 0)])

        var lines: [String] = []
        var expectations: [(path: [String], changesBefore: Int)] = []
        var changes = 0
        var fresh = 0
        for step in 1...30 {
            let handlersNow = model.order.filter { $0 != "R" }
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1:
                fresh += 1
                let name = "N\(fresh)"
                let anchor = random.pick(model.order)
                let anchorIndex = model.order.firstIndex(of: anchor)!
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    lines.append(#"{"change":"insert","handler":\#(Self.handlerObject(name)),"before":"\#(anchor)"}"#)
                    model.order.insert(name, at: anchorIndex)
                case 1:
                    lines.append(#"{"change":"insert","handler":\#(Self.handlerObject(name)),"after":"\#(anchor)"}"#)
                    model.order.insert(name, at: anchorIndex + 1)
                case 2:
                    lines.append(#"{"change":"insert","handler":\#(Self.handlerObject(name)),"at":"first"}"#)
                    model.order.insert(name, at: 0)
                default:
                    lines.append(#"{"change":"insert","handler":\#(Self.handlerObject(name)),"at":"last"}"#)
                    model.order.append(name)
                }
            case 2 where !handlersNow.isEmpty:
                let gone = random.pick(handlersNow)
                lines.append(#"{"change":"remove","handler":"\#(gone)"}"#)
                model.order.removeAll { $0 == gone }
            case 3, 4:
                fresh += 1
                let name = "M\(fresh)"
                let weight = Int.random(in: 0...2, using: &random)
                lines.append(
                    #"{"change":"register","registry":"R","handler":\#(Self.handlerObject(name, weight: weight))}"#
                )
                model.members.append((name, weight, step))
            case 5 where !model.members.isEmpty:
                let gone = model.members.remove(at: Int.random(in: 0..<model.members.count, using: &random)).name
                lines.append(#"{"change":"deregister","registry":"R","handler":"\#(gone)"}"#)
            default:
                break
            }
            if lines.count > expectations.count + changes { changes += 1 }
            // A few commands after each change: for some handler, and one nobody takes.
            let full = model.fullPath
            for _ in 0..<2 {
                let target = random.chance(0.8) ? random.pick(full.filter { $0 != "R" } + ["nobody"]) : "nobody"
                lines.append(#"{"kind":"K\#(target)","id":"s\#(step)-\#(target)"}"#)
                let path = target == "nobody" ? full : Array(full.prefix { $0 != target }) + [target]
                expectations.append((path, changes))
            }
        }
        var options = ReplaySession.Options()
        options.keptPaths = expectations.count
        let session = try ReplaySession(definition: definition, options: options)
        let report = try session.run(
            CommandStreamReader(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), schema: session.schema)
        )
        #expect(report.changes == changes, "seed \(seed)")
        #expect(report.paths.count == expectations.count, "seed \(seed)")
        let firstVersion = report.paths.first.map { $0.trace.chainVersion - expectations[0].changesBefore } ?? 0
        for (replayed, expected) in zip(report.paths, expectations) {
            let line = lines[replayed.line - 1]
            #expect(
                replayed.trace.path == expected.path,
                "seed \(seed), \(line): \(replayed.trace.path) vs \(expected.path)"
            )
            #expect(
                replayed.trace.chainVersion == firstVersion + expected.changesBefore,
                "seed \(seed), \(line): version"
            )
        }

        // Replayed into a trace log, the log records each change — of the stream's kind, in the stream's order, with
        // the version the traces after it carry — as an app's chain edits are recorded.
        let changeKinds = lines.compactMap { line -> String? in
            guard line.hasPrefix(#"{"change":""#) else { return nil }
            return String(line.dropFirst(#"{"change":""#.count).prefix { $0 != "\"" })
        }
        let path = try TestFiles.newDirectory("stream-changes").appendingPathComponent("replay.jsonl").path
        let log = try TraceLogSink(path: path)
        let logged = try ReplaySession(definition: definition, options: options)
        _ = try logged.run(
            CommandStreamReader(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), schema: logged.schema),
            traceLog: log
        )
        try log.close()
        let reader = try TraceLogReader(path: path)
        var versions: [Int] = []
        while let trace = try reader.next() { versions.append(trace.chainVersion) }
        #expect(versions == report.paths.map(\.trace.chainVersion), "seed \(seed)")
        #expect(reader.chainEdits.map(\.kind.rawValue) == changeKinds, "seed \(seed)")
        #expect(
            reader.chainEdits.map(\.version) == Array((firstVersion..<(firstVersion + changes)).map { $0 + 1 }),
            "seed \(seed)"
        )
        #expect(reader.chainEdits.allSatisfy { $0.chain == "changing" }, "seed \(seed)")
    }
}
