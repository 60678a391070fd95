public import ChainTrace
public import Testing

/// Checks a traced request through a middleware stack: each hop nests in the one before it (a middleware runs the
/// rest of the stack inside itself), and the hops' self times add up to the outermost hop's inclusive time, which is
/// within the command's. Each time is rounded to whole nanoseconds on its own, so the sum may differ by one a hop.
public func expectNestedHopsAddUp(_ trace: Trace, sourceLocation: SourceLocation = #_sourceLocation) {
    for (index, hop) in trace.hops.enumerated() {
        #expect(hop.parent == (index == 0 ? nil : index - 1), "\(trace)", sourceLocation: sourceLocation)
    }
    let selfTotal = trace.hops.reduce(Int64(0)) { $0 + Int64($1.selfDuration) }
    let inclusive = Int64(trace.hops.first?.inclusiveDuration ?? 0)
    #expect(
        abs(selfTotal - inclusive) <= Int64(trace.hops.count),
        "self times \(selfTotal) ns against \(inclusive) ns inclusive",
        sourceLocation: sourceLocation
    )
    #expect((trace.hops.first?.inclusiveDuration ?? 0) <= trace.duration, sourceLocation: sourceLocation)
}
