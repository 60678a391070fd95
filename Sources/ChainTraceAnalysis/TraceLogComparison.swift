import ChainTrace
import ChainTraceFiles
public import ChainTraceJSON
public import ChainTraceTraceLog

/// The comparison of two trace logs of the same commands: per-command divergences and per-handler latency.
///
/// ```swift
/// let comparison = try TraceLogComparison.compare(
///     try TraceLogReader(path: "before.jsonl"), try TraceLogReader(path: "after.jsonl"))
/// for divergence in comparison.matcher.divergences { … }
/// ```
public struct TraceLogComparison: Sendable {
    /// The pairing of commands and their divergences.
    public var matcher: TraceMatcher
    /// The first log's profile.
    public var before: ChainProfile
    /// The second log's profile.
    public var after: ChainProfile

    /// Each handler's latency change.
    public var latencyChanges: [LatencyChange] { LatencyChange.between(before, after) }

    /// Reads both logs side by side, in constant memory when their commands are in the same order; the first on a
    /// thread of its own (`TraceReadAhead`), so the two are read at once.
    ///
    /// - Parameters:
    ///   - first: The earlier run (handed over: only the reading thread uses it).
    ///   - second: The later run of the same commands.
    ///   - chains: Compare only the traces of these chains, in both logs; `nil`, the default, compares all.
    ///   - progress: Called now and then with the bytes read of both logs together.
    public static func compare(
        _ first: sending TraceLogReader,
        _ second: TraceLogReader,
        chains: Set<String>? = nil,
        progress: ((Int) -> Void)? = nil
    ) throws(FormatError) -> TraceLogComparison {
        let first = TraceReadAhead(first)
        var comparison = TraceLogComparison(
            matcher: TraceMatcher(placesByStart: true),
            before: ChainProfile(),
            after: ChainProfile()
        )
        var count = 0
        func wanted(_ trace: Trace?) -> Bool { trace.map { chains?.contains($0.chain) ?? true } ?? true }
        while true {
            var read = try first.next()
            while !wanted(read?.trace) { read = try first.next() }
            let left = read?.trace
            let leftPlace = (read?.line, read?.file)
            var right = try second.next()
            while !wanted(right) { right = try second.next() }
            let rightPlace = (second.line, second.files.count > 1 ? second.file : nil)
            if left == nil && right == nil { break }
            if let left { comparison.before.add(left) }
            if let right { comparison.after.add(right) }
            comparison.matcher.add(
                first: left.map { ($0, leftPlace.0, leftPlace.1) },
                second: right.map { ($0, rightPlace.0, rightPlace.1) }
            )
            count += 1
            if count & 0x3FFF == 0 { progress?(first.bytesRead + second.bytesRead) }
        }
        comparison.matcher.finish()
        return comparison
    }
}
