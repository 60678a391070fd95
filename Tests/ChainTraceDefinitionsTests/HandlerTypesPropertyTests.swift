import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// Definitions whose handlers name Swift types the app registers (`"type"`), generated: a registered type builds
/// the app's handler (its decisions, not the rules written beside it); an unregistered one is an error at its
/// `type` member unless unknown types are modelled from their rules; a factory that renames its handler or
/// throws is an error naming the type.
@Suite("Handler types in definitions")
struct HandlerTypesPropertyTests {
    /// A definition of a line of handlers H0…Hn, each accepting kind `K<i>`, some with a `type`.
    static func definition(_ random: inout SeededGenerator, types: [String]) -> (text: String, typed: [Int: String]) {
        let count = Int.random(in: 1...6, using: &random)
        var typed: [Int: String] = [:]
        let handlers = (0..<count).map { index -> String in
            var members = [#""name":"H\#(index)""#, #""accepts":{"kind":["K\#(index)"]}"#]
            if index + 1 < count { members.append(#""next":"H\#(index + 1)""#) }
            if random.chance(0.5) {
                let type = random.pick(types)
                typed[index] = type
                members.append(#""type":"\#(type)""#)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
        return (#"{"chain":"typed","handlers":[\#(handlers.joined(separator: ",\n"))]}"#, typed)
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func registeredTypesBuildTheAppsHandlersAndOthersAreErrorsOrModelled(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (text, typed) = Self.definition(&random, types: ["Takes", "Refuses", "Unknown"])
        let definition = try ChainDefinition.load(bytes: Array(text.utf8), file: "typed.chain.json")
        var types = HandlerTypes()
        // The app's types: one takes every command, one passes every command on — whatever the rules say.
        types.register("Takes") { definition in Handler(definition.name) { _ in .accept(.string("app")) } }
        types.register("Refuses") { definition in Handler(definition.name) { _ in .pass } }

        let unknown = typed.filter { $0.value == "Unknown" }.keys.sorted()
        do {
            let chain = try definition.makeChain(types: types, unknownTypes: .refuse)
            #expect(unknown.isEmpty, "seed \(seed): an unregistered type was accepted")
            // Each handler decides as its type says, else as its rules do.
            for target in 0..<definition.handlers.count {
                let sink = InMemoryTraceSink()
                chain.recorder = Recorder(sink: sink)
                _ = try chain.send(JSONCommand(kind: "K\(target)"))
                var expected: [String] = []
                var taker: String?
                for index in 0..<definition.handlers.count {
                    expected.append("H\(index)")
                    let takes = typed[index].map { $0 == "Takes" } ?? (index == target)
                    if takes {
                        taker = "H\(index)"
                        break
                    }
                }
                #expect(sink.traces.first?.path == expected, "seed \(seed): K\(target)")
                #expect(
                    sink.traces.first?.outcome == (taker.map { .accepted(by: $0) } ?? .fellOffTheEnd),
                    "seed \(seed): K\(target)"
                )
            }
        } catch let error as FormatError {
            let first = try #require(unknown.first, "seed \(seed): \(error)")
            #expect(
                error.expected.contains("a registered handler type") && error.found == "\"Unknown\"",
                "seed \(seed): \(error)"
            )
            // At the first unknown type's `type` member.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[error.line - 1].contains(#""name":"H\#(first)""#), "seed \(seed): \(error)")
        }
        // Modelled from their rules, unknown types never stop the chain.
        _ = try definition.makeChain(types: types, unknownTypes: .modelFromRules)
    }

    @Test func aFactoryThatRenamesOrThrowsIsAnErrorNamingTheType() throws {
        let definition = try ChainDefinition.load(
            bytes: Array(#"{"chain":"c","handlers":[{"name":"A","type":"T"}]}"#.utf8),
            file: "c.json"
        )
        struct Broken: Error, CustomStringConvertible { var description: String { "no database" } }
        var renaming = HandlerTypes()
        renaming.register("T") { _ in Handler("B") { _ in .pass } }
        #expect(throws: FormatError.self) { try definition.makeChain(types: renaming) }
        var throwing = HandlerTypes()
        throwing.register("T") { _ in throw Broken() }
        let error = try #require(throws: FormatError.self) { try definition.makeChain(types: throwing) }
        #expect(error.description.contains("no database") && error.description.contains("\"T\""), "\(error)")
    }
}
