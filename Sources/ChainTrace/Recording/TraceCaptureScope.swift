import ChainTraceFastPath
import CChainTraceSupport

/// One open trace capture — what `captureTraces` in ChainTraceTesting runs on.
///
/// A capture holds every trace recorded in its task and that task's children (it is their scoped recorder), and
/// also the traces recorded while it is open *outside every recorder scope* — on threads the task did not start:
/// Dispatch queues, `Thread`s, event loops — of the chains it involves. It involves a chain it was told about
/// (`chains:`) or one it has recorded a trace of in its own task.
///
/// Such a trace is attributed when exactly one open capture involves its chain. When several do (parallel tests
/// sharing a chain), nobody can tell whose it is: each of them counts it as ``Result/ambiguous`` instead of
/// taking it. A trace no open capture involves waits until a capture closes: one that by then involves its chain
/// takes it (or counts it ambiguous, as above); one that recorded nothing at all counts it as
/// ``Result/unclaimed`` if it came from a thread running no Swift task (a parallel test's own unrecorded sends
/// run in its task, and are nobody's). So a capture is never silently partial: what it could not take, it
/// reports.
package final class TraceCaptureScope: TraceSink {
    /// What a closed capture holds.
    package struct Result: Sendable {
        /// The traces it took, in start-time order (then by id).
        package var traces: [Trace]
        /// Per chain, how many traces were recorded outside every recorder scope while this capture and another
        /// involving the same chain were both open.
        package var ambiguous: [String: Int]
        /// Per chain, how many traces were recorded on threads running no Swift task while this capture was open,
        /// of chains it never involved, when it took no trace at all.
        package var unclaimed: [String: Int]
    }

    private struct State {
        var traces: [Trace] = []
        var chains: Set<String>
        var ambiguous: [String: Int] = [:]
    }

    private let token = OwnerTokens.make()
    private let state: LockedValue<State>

    private init(chains: [String]) {
        state = LockedValue(State(chains: Set(chains)))
    }

    /// Runs `body` inside a new capture involving `chains`, and returns its result with what the capture holds.
    package static func run<T>(chains: [String], _ body: () throws -> T) rethrows -> (T, Result) {
        let scope = TraceCaptureScope(chains: chains)
        UnscopedTraces.open(scope)
        let value: T
        do {
            value = try ChainTracing.withRecorder(Recorder(sink: scope), operation: body)
        } catch {
            _ = UnscopedTraces.close(scope)
            throw error
        }
        return (value, UnscopedTraces.close(scope))
    }

    /// Async form of ``run(chains:_:)``.
    package static func run<T>(chains: [String], _ body: () async throws -> T) async rethrows -> (T, Result) {
        let scope = TraceCaptureScope(chains: chains)
        UnscopedTraces.open(scope)
        let value: T
        do {
            value = try await ChainTracing.withRecorder(Recorder(sink: scope), operation: body)
        } catch {
            _ = UnscopedTraces.close(scope)
            throw error
        }
        return (value, UnscopedTraces.close(scope))
    }

    /// A trace recorded in this capture's task.
    package func record(_ trace: Trace) {
        state.withLock { state in
            state.traces.append(trace)
            state.chains.insert(trace.chain)
        }
    }

    fileprivate var id: UInt64 { token }

    fileprivate func involves(_ chain: String) -> Bool {
        state.withLock { $0.chains.contains(chain) }
    }

    fileprivate var isEmpty: Bool {
        state.withLock { $0.traces.isEmpty }
    }

    fileprivate func take(_ trace: Trace) {
        state.withLock { $0.traces.append(trace) }
    }

    fileprivate func countAmbiguous(_ chain: String) {
        state.withLock { $0.ambiguous[chain, default: 0] += 1 }
    }

    fileprivate func result(unclaimed: [String: Int]) -> Result {
        state.withLock { state in
            let traces = state.traces.sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
            return Result(traces: traces, ambiguous: state.ambiguous, unclaimed: unclaimed)
        }
    }
}

/// Where traces recorded outside every recorder scope go while a ``TraceCaptureScope`` is open.
///
/// Nothing here runs unless a capture is open: ``configuration`` is one atomic load otherwise, and is only
/// asked for when no recorder of the chain's own, no scoped recorder and (for instrumented chains) no
/// bootstrapped recorder is in force.
@usableFromInline
enum UnscopedTraces {
    /// A trace no open capture involved when it was recorded, with the captures open then.
    private struct Pending {
        var trace: Trace
        var candidates: Set<UInt64>
        /// Recorded on a thread running no Swift task (a Dispatch queue, a `Thread`): work some test started,
        /// not a parallel test's own unrecorded sends.
        var outsideTasks: Bool
    }

    private struct Registry {
        var open: [TraceCaptureScope] = []
        var pending: [Pending] = []
    }

    private static let registry = LockedValue(Registry())

    private static let recorderConfiguration = RecorderConfiguration(
        sink: Sink(), sampling: .all, filter: nil, capturesPayloads: true)

    /// The recording settings for a command outside every recorder scope: the captures' while one is open,
    /// else `nil`.
    @usableFromInline
    static var configuration: RecorderConfiguration? {
        chaintrace_open_captures() > 0 ? recorderConfiguration : nil
    }

    static func open(_ scope: TraceCaptureScope) {
        registry.withLock { registry in
            registry.open.append(scope)
            chaintrace_add_open_captures(1)
        }
    }

    /// Closes `scope`: settles the pending traces it was open for, and returns what it holds.
    static func close(_ scope: TraceCaptureScope) -> TraceCaptureScope.Result {
        registry.withLock { registry in
            registry.open.removeAll { $0 === scope }
            chaintrace_add_open_captures(-1)
            var unclaimed: [String: Int] = [:]
            let tookNothing = scope.isEmpty
            registry.pending = registry.pending.compactMap { pending in
                guard pending.candidates.contains(scope.id) else { return pending }
                var pending = pending
                pending.candidates.remove(scope.id)
                let chain = pending.trace.chain
                if scope.involves(chain) {
                    let others = registry.open.filter { pending.candidates.contains($0.id) && $0.involves(chain) }
                    if others.isEmpty {
                        scope.take(pending.trace)
                        return nil
                    }
                    scope.countAmbiguous(chain)
                } else if tookNothing, pending.outsideTasks {
                    unclaimed[chain, default: 0] += 1
                }
                return pending.candidates.isEmpty ? nil : pending
            }
            return scope.result(unclaimed: unclaimed)
        }
    }

    /// Takes a trace recorded outside every recorder scope while a capture was open.
    private struct Sink: TraceSink {
        func record(_ trace: Trace) {
            registry.withLock { registry in
                let involved = registry.open.filter { $0.involves(trace.chain) }
                switch involved.count {
                case 0:
                    guard !registry.open.isEmpty else { return }
                    let outsideTasks = withUnsafeCurrentTask { $0 == nil }
                    registry.pending.append(
                        Pending(trace: trace, candidates: Set(registry.open.map(\.id)), outsideTasks: outsideTasks))
                case 1:
                    involved[0].take(trace)
                default:
                    for scope in involved { scope.countAmbiguous(trace.chain) }
                }
            }
        }
    }
}
