import CChainTraceSupport
import ChainTraceFastPath

/// One open trace capture — what `captureTraces` in ChainTraceTesting runs on.
///
/// A capture is the scoped recorder of its task: it holds every trace recorded in that task and its child tasks,
/// and nothing else — deterministically, whatever runs beside it.
///
/// A capture that *names* chains (`claims`) also takes the traces of those chains recorded outside every recorder
/// scope while it is open: on threads its task did not start (Dispatch queues, `Thread`s, event loops) or in
/// detached tasks. Two captures that claim one chain at the same time cannot tell whose such a trace is: neither
/// takes it, and both report the overlap, naming each other (``Result/overlaps``). A trace recorded outside every
/// recorder scope whose chain no open capture claims goes nowhere.
package final class TraceCaptureScope: TraceSink {
    /// What a closed capture holds.
    package struct Result: Sendable {
        /// The traces it took, in start-time order (then by id).
        package var traces: [Trace]
        /// The other captures that claimed one of this capture's chains while it was open, as they describe
        /// themselves, in the order they were met.
        package var overlaps: [String]
        /// Per chain, how many traces recorded outside every recorder scope neither this capture nor the ones it
        /// overlapped took.
        package var unattributed: [String: Int]
    }

    private struct State {
        var traces: [Trace] = []
        var overlaps: [String] = []
        var unattributed: [String: Int] = [:]
    }

    /// The chains whose traces from outside every recorder scope this capture takes.
    fileprivate let claims: Set<String>
    /// The recording settings for the traces of those chains started outside every recorder scope: the capture's
    /// payloads, into ``UnscopedTraces``' sink.
    fileprivate let unscopedConfiguration: RecorderConfiguration
    /// How this capture is named to another that overlaps it: where it was opened, and what it claims.
    fileprivate let description: String
    private let state = LockedValue(State())

    private init(claims: [String], description: String, payloads: Payloads) {
        self.claims = Set(claims)
        self.description = description
        unscopedConfiguration = UnscopedTraces.configuration(payloads: payloads)
    }

    /// Runs `body` inside a new capture claiming `claims`, described to captures it overlaps as `description`,
    /// and returns its result with what the capture holds.
    package static func run<T>(
        claims: [String],
        description: String,
        payloads: Payloads = .none,
        _ body: () throws -> T
    ) rethrows -> (T, Result) {
        let scope = TraceCaptureScope(claims: claims, description: description, payloads: payloads)
        UnscopedTraces.open(scope)
        let value: T
        do {
            value = try ChainTracing.withRecorder(Recorder(sink: scope, payloads: payloads), operation: body)
        } catch {
            UnscopedTraces.close(scope)
            throw error
        }
        // Closed before its result is read: a trace from another thread is either in it or went elsewhere.
        UnscopedTraces.close(scope)
        return (value, scope.result)
    }

    /// Async form of ``run(claims:description:payloads:_:)``.
    package static func run<T>(
        claims: [String],
        description: String,
        payloads: Payloads = .none,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> (T, Result) {
        let scope = TraceCaptureScope(claims: claims, description: description, payloads: payloads)
        UnscopedTraces.open(scope)
        let value: T
        do {
            value = try await ChainTracing.withRecorder(
                Recorder(sink: scope, payloads: payloads),
                isolation: isolation,
                operation: body
            )
        } catch {
            UnscopedTraces.close(scope)
            throw error
        }
        UnscopedTraces.close(scope)
        return (value, scope.result)
    }

    /// A trace recorded in this capture's task tree.
    package func record(_ trace: Trace) {
        state.withLock { $0.traces.append(trace) }
    }

    fileprivate func noteOverlap(with other: TraceCaptureScope) {
        state.withLock { $0.overlaps.append(other.description) }
    }

    fileprivate func countUnattributed(_ chain: String) {
        state.withLock { $0.unattributed[chain, default: 0] += 1 }
    }

    private var result: Result {
        state.withLock { state in
            let traces = state.traces.sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
            return Result(traces: traces, overlaps: state.overlaps, unattributed: state.unattributed)
        }
    }
}

/// Where traces recorded outside every recorder scope go while a ``TraceCaptureScope`` that claims chains is
/// open.
///
/// Nothing here runs unless such a capture is open: ``configuration`` is one atomic load otherwise, and is only
/// asked for when no recorder of the chain's own, no scoped recorder and (for instrumented chains) no
/// bootstrapped recorder is in force.
@usableFromInline
enum UnscopedTraces {
    /// The open captures that claim chains.
    private static let claiming = LockedValue([TraceCaptureScope]())

    private static let recorderConfiguration = configuration(payloads: .none)

    /// Recording settings into this sink, with `payloads`.
    fileprivate static func configuration(payloads: Payloads) -> RecorderConfiguration {
        RecorderConfiguration(sink: Sink(), sampling: .all, filter: nil, payloads: payloads)
    }

    /// The recording settings for a command of chain `chain` outside every recorder scope while a capture that
    /// claims chains is open — the payloads of the capture that claims `chain` — else `nil`.
    @usableFromInline
    static func configuration(chain: () -> String) -> RecorderConfiguration? {
        guard chaintrace_open_captures() > 0 else { return nil }
        let name = chain()
        return claiming.withLock { open in open.first { $0.claims.contains(name) }?.unscopedConfiguration }
            ?? recorderConfiguration
    }

    /// Notes `scope` open; a capture that claims no chain takes nothing from outside its task and is not noted.
    static func open(_ scope: TraceCaptureScope) {
        guard !scope.claims.isEmpty else { return }
        claiming.withLock { open in
            for other in open where !other.claims.isDisjoint(with: scope.claims) {
                other.noteOverlap(with: scope)
                scope.noteOverlap(with: other)
            }
            open.append(scope)
            chaintrace_add_open_captures(1)
        }
    }

    /// Notes `scope` closed: traces from outside every recorder scope no longer go to it.
    static func close(_ scope: TraceCaptureScope) {
        guard !scope.claims.isEmpty else { return }
        claiming.withLock { open in
            open.removeAll { $0 === scope }
            chaintrace_add_open_captures(-1)
        }
    }

    /// Takes a trace recorded outside every recorder scope while a capture claiming chains was open.
    private struct Sink: TraceSink {
        func record(_ trace: Trace) {
            claiming.withLock { open in
                let claimants = open.filter { $0.claims.contains(trace.chain) }
                if claimants.count == 1 {
                    claimants[0].record(trace)
                } else {
                    for scope in claimants { scope.countUnattributed(trace.chain) }
                }
            }
        }
    }
}
