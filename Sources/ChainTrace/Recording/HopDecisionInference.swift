import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceJSON

/// How a hop's decision is inferred from the way its body came back and from what went on inside it: a pure
/// function of the facts the trace gathers as the hop closes (``ActiveTrace/decision(for:role:wentOn:failedInside:record:content:)``),
/// so that the rules `traceHop`'s documentation states are tested directly, case by case.
enum HopDecisionInference {
    /// What the trace knows of a closing hop.
    struct Facts {
        /// How its body came back.
        var returned: HopReturn
        var role: HandlerRole
        /// Whether the command went on from it past observers (a hop that did more than continue ran inside it).
        var wentOn: Bool
        /// Whether a hop inside it failed, and no hop inside it recovered from that.
        var failedInside = false
        /// Whether, as it threw, every failure inside it that still ended the command was a `CancellationError`
        /// while its own error is none: it cancelled them (a timeout that won a race), and the failure is its own.
        var failedOnlyByCancellation = false
        /// When it came back with a value after a hop inside it threw and none inside it recovered: it caught the
        /// error; whether a hop inside it accepted (a retry that worked). `nil` when it caught nothing.
        var caught: Bool?
        /// What ``ChainTracing/decide(_:reason:)`` set from inside its body, if anything.
        var override: (decision: Decision, reason: String?)?
    }

    /// What the hop is recorded as.
    struct Inferred: Equatable {
        var decision: Decision
        var reason: String?
        /// Whether the error it threw is its reason (its text is made when the trace is delivered).
        var reasonIsThrown: Bool
        /// Whether it caught a failure from inside it and came back with a value.
        var recovered: Bool
    }

    /// The decision: a value *accepted*, an Optional's `nil` *passed*, a throw *failed*, `decide`'s judgement as
    /// judged; but a hop the command went on from did not accept, and a failure handed up through a hop stays where
    /// it started (unless the hop cancelled the hops that threw and threw its own); an observer *continued*; a hop
    /// that caught a failure and came back with a value *accepted* (or *passed*, when a hop inside it accepted);
    /// and ``ChainTracing/decide(_:reason:)`` overrides all of it.
    static func decide(_ facts: Facts) -> Inferred {
        var decision: Decision
        var reason: String?
        var reasonIsThrown = false
        switch facts.returned {
        case .value: decision = .accepted
        case .nothing: decision = .passed
        case .judged(let judged, let why): (decision, reason) = (judged, why)
        case .error: (decision, reasonIsThrown) = (.failed, true)
        }
        let threw: Bool
        if case .error = facts.returned { threw = true } else { threw = false }
        if decision == .failed && facts.failedInside && threw && facts.failedOnlyByCancellation {
            // Its own failure: the ones inside it were its cancellations.
        } else if decision == .accepted && facts.wentOn || decision == .failed && facts.failedInside {
            (decision, reason, reasonIsThrown) = (.passed, nil, false)
        }
        if facts.role == .observer, decision == .passed || decision == .accepted { decision = .continued }
        var recovered = false
        if let acceptedInside = facts.caught, returnedAValue(facts.returned) {
            decision = facts.role == .observer ? .continued : acceptedInside ? .passed : .accepted
            recovered = true
        }
        if let override = facts.override {
            (decision, reason, reasonIsThrown) = (override.decision, override.reason, false)
        }
        return Inferred(decision: decision, reason: reason, reasonIsThrown: reasonIsThrown, recovered: recovered)
    }

    /// ``decide(_:)`` for the common close — a normal return (`accepted`) or an Optional's `nil`, no failure in the
    /// trace, no override — in line on the traced hop's path.
    /// `wentOn` is read only for a responder's plain return: the records are not walked for the rest.
    @inline(__always)
    static func returnedNormally(accepted: Bool, role: HandlerRole, wentOn: @autoclosure () -> Bool) -> Decision {
        role == .observer ? .continued : accepted && !wentOn() ? .accepted : .passed
    }

    /// Whether `returned` is a value that may follow a caught failure: a plain return, or one `decide` accepted
    /// (not an error, nor the "nothing" of an Optional result).
    static func returnedAValue(_ returned: HopReturn) -> Bool {
        switch returned {
        case .value, .judged(.accepted, _): true
        default: false
        }
    }

    /// What went on in a hop closed as `decision` with `inside` inside it, for the hop it is nested in: a failure if
    /// it or a hop inside it failed, else `.passed` if it or a hop inside it did more than continue, else
    /// `.continued`.
    static func wentOn(_ decision: Decision, inside: Decision) -> Decision {
        if decision == .failed || inside == .failed { return .failed }
        return decision != .continued || inside == .passed ? .passed : .continued
    }
}

extension ActiveTrace {
    /// The decision (and reason) of open hop `record`, which returned `returned`: gathers the facts
    /// ``HopDecisionInference/decide(_:)`` needs from the hops inside it (marking the failures it recovered from),
    /// takes the override set for it, and notes the trace's first failure, and a thrown one.
    static func decision(
        for returned: HopReturn,
        role: HandlerRole,
        wentOn: Bool,
        failedInside: Bool,
        record: Int,
        content: inout Content
    ) -> (decision: Decision, reason: String?, recovered: Bool) {
        var facts = HopDecisionInference.Facts(
            returned: returned,
            role: role,
            wentOn: wentOn,
            failedInside: failedInside
        )
        if failedInside, case .error(let error) = returned,
            content.failedOnlyByCancellation(inside: record, throwing: error)
        {
            facts.failedOnlyByCancellation = true
            // Theirs no longer end the command; its own does.
            _ = content.recoverFailures(inside: record)
        }
        if content.failure != nil, HopDecisionInference.returnedAValue(returned) {
            let (recovered, acceptedInside) = content.recoverFailures(inside: record)
            if recovered { facts.caught = acceptedInside }
        }
        if !content.overrides.isEmpty, let index = content.overrides.lastIndex(where: { $0.record == record }) {
            facts.override = (content.overrides[index].decision, content.overrides[index].reason)
            content.overrides.remove(at: index)
        }
        let inferred = HopDecisionInference.decide(facts)
        if inferred.reasonIsThrown, case .error(let error) = returned { content.failureErrors.append((record, error)) }
        if inferred.decision == .failed, content.failure == nil { content.failure = record }
        if inferred.decision == .failed, case .error = returned { content.thrown.append(record) }
        return (inferred.decision, inferred.reason, inferred.recovered)
    }
}

/// How an instrumented handler's body came back.
@usableFromInline
enum HopReturn {
    case value
    case nothing
    case judged(Decision, String?)
    case error(any Error)
}
