import ChainTrace
import ChainTraceDefinitions
import FuzzSupport

/// A chain definition from any bytes: it loads or reports a position; one that loads builds a chain, and for
/// commands of the kinds its text names, the dry run (`which`) and the real run (`replay`) agree wherever the
/// dry run can tell.
@_cdecl("fuzz_definition_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzDefinition(inputBytes(data, size)) }
}

func fuzzDefinition(_ bytes: [UInt8]) -> CInt {
    var definition: ChainDefinition
    do {
        definition = try ChainDefinition.load(bytes: bytes, file: "fuzz.chain.json")
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "an error outside the input: \(error)")
        return 0
    }
    // Simulated work spins for as long as the definition asks; the decisions are what is fuzzed here.
    definition.handlers = definition.handlers.map(withoutWork)
    let sink = InMemoryTraceSink()
    guard let chain = try? definition.makeChain(unknownTypes: .modelFromRules, recorder: Recorder(sink: sink)) else {
        return 0
    }
    var kinds = ["A", "Coin", ""]
    for handler in definition.handlers.prefix(4) { kinds.append(handler.name) }
    for kind in kinds {
        let command = JSONCommand(kind: kind)
        guard let dryRun = try? chain.whoWouldHandle(command) else { continue }
        sink.removeAll()
        _ = try? chain.send(command)
        guard let trace = sink.traces.last, dryRun.undecided.isEmpty else { continue }
        precondition(dryRun.path == trace.path, "dry run \(dryRun.path) vs real run \(trace.path) for \(kind)")
        precondition(
            dryRun.predictedOutcome == trace.outcome,
            "dry run \(String(describing: dryRun.predictedOutcome)) vs \(trace.outcome)"
        )
    }
    return 0
}

func withoutWork(_ handler: HandlerDefinition) -> HandlerDefinition {
    var handler = handler
    handler.work = nil
    handler.members = handler.members?.map(withoutWork)
    return handler
}
