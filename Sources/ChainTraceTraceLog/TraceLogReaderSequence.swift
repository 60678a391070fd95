public import ChainTrace

/// A trace log's traces in order, read as they are asked for: `for try await trace in reader`. An `AsyncSequence`
/// because reading can fail at any line (a `FormatError` naming it), and only an async sequence may throw; the
/// reading itself is synchronous, on the caller's task. Iterating reads the log from where ``next()`` left it, so
/// one log is read once.
///
/// ```swift
/// var slowest: Trace?
/// for try await trace in try TraceLogReader(path: "traces.jsonl") where trace.elapsed > slowest?.elapsed ?? .zero {
///     slowest = trace
/// }
/// ```
extension TraceLogReader: AsyncSequence {
    public typealias Element = Trace
    public typealias Failure = FormatError

    /// Reads a log's traces for a `for try await` loop.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: TraceLogReader

        /// The next trace, or `nil` at the end of the log.
        public mutating func next() async throws(FormatError) -> Trace? {
            try reader.next()
        }

        /// The next trace, or `nil` at the end of the log, read wherever the caller runs.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FormatError) -> Trace? {
            try reader.next()
        }
    }

    /// An iterator that reads on from where the reader is.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: self)
    }
}
