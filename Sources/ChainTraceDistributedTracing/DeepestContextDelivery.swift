package import ChainTrace
import Tracing

extension LinearTrace {
    /// Hands `trace`'s trace to its recorder (``LinearTrace/finish(_:)``) with the `ServiceContext` its deepest hop
    /// ran in bound, as ``LinearTrace/keepDeepestContext(_:)`` kept it: a span-making sink (`SpanTraceSink`) then puts
    /// the command's span under the framework's request span — a tracing middleware's or interceptor's, which binds
    /// its span's context only around what comes after it — and the trace notes that span (`Trace.traceParent`) for
    /// a trace log. With no context kept, a plain ``LinearTrace/finish(_:)``. For the Hummingbird and gRPC
    /// integrations.
    package static func finishInDeepestContext(_ trace: inout LinearTrace?) {
        guard let context = trace?.deepestContext as? InstrumentationContext else {
            return finish(&trace)
        }
        trace?.setTraceParent(TraceParent(context: context))
        InstrumentationContext.$current.withValue(context) { finish(&trace) }
    }
}
