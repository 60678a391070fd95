import ChainTrace
import ChainTraceTestSupport
import Testing

/// Edits a chain refuses — an unknown name, a duplicate, a registry used as a handler, a member registered twice —
/// generated against generated chains, change nothing: the version stays, the structure and every command's path
/// stay as they were, and the error says which name and why.
@Suite("Refused edits change nothing")
struct FailedEditTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func aRefusedEditLeavesTheChainAsItWas(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chain = try Chain<String, String>("refusing-\(seed)")
        var names: [String] = []
        for index in 0..<Int.random(in: 1...6, using: &random) {
            let name = "N\(index)"
            try chain.append(Handler(name) { $0 == name ? .accept(name) : .pass })
            names.append(name)
        }
        let registry = try chain.addRegistry("R")
        try registry.register(Handler("M") { $0 == "M" ? .accept("M") : .pass }, weight: 1)
        let version = chain.version
        let description = chain.debugDescription
        let paths = try names.map { try chain.whoWouldHandle($0).path }

        let existing = random.pick(names)
        let attempt = Int.random(in: 0..<8, using: &random)
        let error = try #require(throws: ChainError.self, "seed \(seed): attempt \(attempt) was accepted") {
            switch attempt {
            case 0: try chain.append(Handler(existing) { _ in .pass })
            case 1: try chain.insert(Handler("New") { _ in .pass }, at: .before("Ghost"))
            case 2: try chain.insert(Handler("New") { _ in .pass }, at: .after("Ghost"))
            case 3: try chain.remove("Ghost")
            case 4: try chain.link(existing, to: "Ghost")
            case 5: try chain.replace("R", with: Handler("R") { _ in .pass })
            case 6: try registry.register(Handler(existing) { _ in .pass }, weight: 0)
            default: _ = try chain.registry(existing)
            }
        }
        #expect(
            !error.message.isEmpty
                && (error.message.contains("Ghost") || error.message.contains(existing) || error.message.contains("R")),
            "seed \(seed): \(error)"
        )
        #expect(chain.version == version, "seed \(seed): attempt \(attempt) bumped the version")
        #expect(chain.debugDescription == description, "seed \(seed): attempt \(attempt) changed the structure")
        #expect(try names.map { try chain.whoWouldHandle($0).path } == paths, "seed \(seed)")
    }
}
