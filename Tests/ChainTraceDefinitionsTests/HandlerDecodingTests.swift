import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// Handlers as definitions write them, generated with every member in any order: the decoded `HandlerDefinition`
/// holds exactly what was written — role, type, next, budget and work in nanoseconds, options, registry members
/// with their weights, failures with their error text — and its `source` path names where it was.
@Suite("Handler definitions decode as written")
struct HandlerDecodingTests {
    @Test(arguments: SeededGenerator.seeds(80))
    func everyMemberIsDecodedAsWritten(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let observer = random.chance(0.3)
        let type: String? = random.chance(0.4) ? "T\(Int.random(in: 0...9, using: &random))" : nil
        let budget: (String, Int64)? =
            random.chance(0.5)
            ? random.pick([("250ns", 250), ("20us", 20_000), ("1.5ms", 1_500_000), ("2s", 2_000_000_000)]) : nil
        let work: (String, Int64)? = random.chance(0.5) ? random.pick([("1us", 1_000), ("3ms", 3_000_000)]) : nil
        let failure: String? = !observer && random.chance(0.4) ? random.hostileName(minimumLength: 1) : nil
        let options: JSONValue? =
            random.chance(0.4) ? .object(["k": .string(random.hostileName()), "n": .integer(7)]) : nil
        var members: [(String, String)] = [("name", #""Main""#), ("next", #""Tail""#)]
        if observer {
            members.append(("role", #""observer""#))
        } else {
            members.append(("accepts", #"{"kind":["K"]}"#))
        }
        if let type { members.append(("type", #""\#(type)""#)) }
        if let budget { members.append(("budget", #""\#(budget.0)""#)) }
        if let work { members.append(("work", #""\#(work.0)""#)) }
        if let failure {
            members.append(("fails", #"{"when":{"kind":["F"]},"error":\#(CLILine.text(.string(failure)))}"#))
        }
        if let options { members.append(("options", CLILine.text(options))) }
        let handler =
            "{" + members.shuffled(using: &random).map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}"
        let text = #"{"chain":"c","handlers":[\#(handler),{"name":"Tail"}]}"#
        let definition = try ChainDefinition.load(bytes: Array(text.utf8), file: "h.json")
        let main = try #require(definition.handler(named: "Main"), "seed \(seed)")
        #expect(main.role == (observer ? .observer : .responder), "seed \(seed)")
        #expect(main.type == type && main.next == "Tail", "seed \(seed)")
        #expect(main.budget == budget?.1 && main.work == work?.1, "seed \(seed)")
        #expect(main.failure?.error == failure, "seed \(seed)")
        if options != nil { #expect(main.options == options!, "seed \(seed)") }
        #expect(main.accepts == (observer ? nil : .kind(["K"])), "seed \(seed): \(String(describing: main.accepts))")
        #expect(main.source == "handlers[0]", "seed \(seed): \(main.source)")
        #expect(main.members == nil, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func registryMembersKeepTheirWeightsAndFileOrder(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let weights = (0..<Int.random(in: 1...6, using: &random)).map { _ in Int.random(in: -3...9, using: &random) }
        let members = weights.enumerated().map { #"{"name":"M\#($0.offset)","weight":\#($0.element)}"# }
        let text = #"{"chain":"c","handlers":[{"name":"R","registry":[\#(members.joined(separator: ","))]}]}"#
        let definition = try ChainDefinition.load(bytes: Array(text.utf8), file: "r.json")
        let registry = try #require(definition.handler(named: "R")?.members, "seed \(seed)")
        #expect(
            registry.map(\.name) == weights.indices.map { "M\($0)" } && registry.map(\.weight) == weights,
            "seed \(seed)"
        )
        #expect(
            registry.enumerated().allSatisfy { $0.element.source == "handlers[0].registry[\($0.offset)]" },
            "seed \(seed): \(registry.map(\.source))"
        )
        #expect(definition.handler(named: "M0")?.name == "M0", "seed \(seed): members are found by name")
    }
}
