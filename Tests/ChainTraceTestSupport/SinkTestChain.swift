public import ChainTrace

/// The chain the span and log sinks' tests send through: a chain with an observer, a responder that passes, and one that fails on "crash".
public func makeSinkTestChain(recorder: Recorder) throws -> Chain<String, String> {
    struct Jammed: Error, CustomStringConvertible { var description: String { "jammed" } }
    return try Chain(
        "vending",
        handlers: [
            .observer("Counter") { _ in },
            Handler("Penny") { $0 == "penny" ? .accept("penny") : .pass(because: "not a penny") },
            Handler("Quarter") { coin in
                if coin == "crash" { throw Jammed() }
                return coin == "quarter" ? .accept("quarter") : .pass
            },
        ],
        recorder: recorder
    )
}
