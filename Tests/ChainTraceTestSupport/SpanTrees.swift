public import InMemoryTracing
public import Testing
import Tracing

/// The spans under `span`, at any depth (a hop's span is its enclosing hop's child), in the order they started.
public func descendants(of span: FinishedInMemorySpan, in spans: [FinishedInMemorySpan]) -> [FinishedInMemorySpan] {
    var found: [FinishedInMemorySpan] = []
    var parents: Set<String> = [span.spanID]
    while true {
        let next = spans.filter { $0.parentSpanID.map(parents.contains) == true && !parents.contains($0.spanID) }
        if next.isEmpty { break }
        found += next
        parents.formUnion(next.map(\.spanID))
    }
    return found.sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
}

/// What an exit test's child process printed: an exit test whose checks print what failed and exit normally
/// either way, since `#expect(processExitsWith:)` hands back what a child wrote only when it exited as expected.
/// Empty when every check in the child held.
public func childComplaint(_ result: ExitTest.Result?) -> String {
    guard let result else { return "the child process did not exit normally" }
    return String(decoding: result.standardOutputContent, as: UTF8.self)
}
