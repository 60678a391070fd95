import ChainTrace
import Testing

@Suite("Dry runs: who would take it?")
struct DryRunTests {
    @Test func dryRunNamesTheHandlerAndPathWithoutRunningAnything() throws {
        let ran = Counter()
        let chain = try Chain<Coin, String>(
            "coins",
            handlers: [
                validator("Penny", .penny),
                Handler("Dime", canHandle: { matches($0, .dime) }) { _ in
                    ran.increment()
                    return .accept("Dime")
                },
            ]
        )
        let sink = InMemoryTraceSink()
        chain.recorder = Recorder(sink: sink)
        let answer = try chain.whoWouldHandle(.dime)
        #expect(answer.handler == "Dime")
        #expect(answer.path == ["Penny", "Dime"])
        #expect(answer.steps.map(\.answer) == [.wouldPass, .wouldAccept])
        #expect(ran.value == 0)
        #expect(sink.traces.isEmpty)
    }

    @Test func handlersWithoutATestAreReportedAsUndecided() throws {
        let chain = try coinChain()
        try chain.insert(Handler("Mystery") { _ in .pass }, at: .first)
        try chain.insert(.observer("Analytics") { _ in }, at: .first)
        let answer = try chain.whoWouldHandle(.washer)
        #expect(answer.handler == nil)
        #expect(answer.undecided == ["Mystery"])
        #expect(answer.steps.first?.answer == .wouldContinue)
    }

    @Test func dryRunEntersAtTheGivenHandler() throws {
        let chain = try coinChain()
        let answer = try chain.whoWouldHandle(.penny, from: "Dime")
        #expect(answer.entry == "Dime")
        #expect(answer.path == ["Dime", "Quarter"])
        #expect(answer.handler == nil)
    }
}
