/// The context a command's deepest hop ran in, kept for the trace's delivery: what lets a framework integration
/// put a command's spans under the framework's own request span. A tracing middleware (Hummingbird's or Vapor's
/// `TracingMiddleware`) binds its span's context only around the middleware after it, so the hop that starts the
/// trace, and delivers it, runs outside that span; the first hop to close — the deepest the command reached, inside
/// every middleware that let it through — runs inside it. The integration keeps that hop's context and delivers the
/// trace with it bound, where a sink that reads the current context (`SpanTraceSink`) finds it.
///
/// The core does not know what a context is (an integration keeps a `ServiceContext`); it only keeps the first one
/// and lets go of it with the trace.
extension ActiveTrace {
    /// Keeps what `read` returns, unless a hop closed before kept one: one branch a hop after the first.
    @inline(__always)
    func keepDeepestContext(_ read: () -> (any Sendable)?) {
        withContent { content in
            guard !content.keptDeepestContext else { return }
            content.keptDeepestContext = true
            content.deepestContext = read()
        }
    }

    /// What ``keepDeepestContext(_:)`` kept, if anything.
    var deepestContext: (any Sendable)? {
        withContent { $0.deepestContext }
    }

    /// Notes the span the command ran under in the app's distributed tracing — read from the kept context by the
    /// integration, which knows what a context is — for the delivered trace (``Trace/traceParent``), so that a
    /// trace log keeps it.
    func setTraceParent(_ parent: TraceParent?) {
        withContent { $0.traceParent = parent }
    }
}

extension ActiveTrace.Content {
    /// Lets go of the kept context, so that a trace kept for reuse keeps none of the app's alive.
    mutating func forgetDeepestContext() {
        deepestContext = nil
        keptDeepestContext = false
    }
}

extension LinearTrace {
    /// Keeps what `read` returns — the context the framework's request runs in here — for ``deepestContext``, when
    /// this is the command's first hop to close, the deepest it reached; does nothing for a trace that records
    /// nothing, and costs one branch on every later hop.
    @inline(__always)
    package func keepDeepestContext(_ read: () -> (any Sendable)?) {
        trace?.keepDeepestContext(read)
    }

    /// What ``keepDeepestContext(_:)`` kept: the context to deliver the trace in (see ``finish(_:)``).
    package var deepestContext: (any Sendable)? { trace?.deepestContext }

    /// Notes the span the command ran under (see ``ActiveTrace/setTraceParent(_:)``), before ``finish(_:)``.
    package func setTraceParent(_ parent: TraceParent?) {
        trace?.setTraceParent(parent)
    }
}
