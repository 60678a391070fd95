import Testing

@testable import ChainTrace

/// The decision rules `traceHop` documents, checked on the pure inference for every combination of what a closing
/// hop can have: how its body came back, its role, whether the command went on from it, whether a hop inside it
/// failed (by cancellation only, or not), whether it caught a failure, and an override. The expectations are the
/// documented rules, written as a precedence list.
@Suite("Decision inference, every case")
struct HopDecisionInferenceTests {
    struct Cancelled: Error {}

    static var returns: [(String, HopReturn)] {
        [
            ("value", .value), ("nothing", .nothing), ("error", .error(Cancelled())),
            ("error", .error(CancellationError())),
        ]
            + [Decision.accepted, .passed, .continued, .failed].map { ("judged \($0)", .judged($0, "judged")) }
    }

    /// The documented rules, first match wins.
    static func expected(_ facts: HopDecisionInference.Facts) -> HopDecisionInference.Inferred {
        let threw: Bool
        let base: (Decision, String?)
        switch facts.returned {
        case .value: (threw, base) = (false, (.accepted, nil))
        case .nothing: (threw, base) = (false, (.passed, nil))
        case .judged(let decision, let reason): (threw, base) = (false, (decision, reason))
        case .error: (threw, base) = (true, (.failed, nil))
        }
        // `decide` overrides everything.
        if let override = facts.override {
            return .init(
                decision: override.decision,
                reason: override.reason,
                reasonIsThrown: false,
                recovered: facts.caught != nil && HopDecisionInference.returnedAValue(facts.returned)
            )
        }
        // A failure handed up through it stays where it started — unless it cancelled the hops that threw.
        let handedUp = base.0 == .failed && facts.failedInside && !(threw && facts.failedOnlyByCancellation)
        // It did not take a command that went on from it.
        let forwarded = base.0 == .accepted && facts.wentOn
        var decision = handedUp || forwarded ? Decision.passed : base.0
        let reason = handedUp || forwarded ? nil : base.1
        if facts.role == .observer, decision == .passed || decision == .accepted { decision = .continued }
        // Caught a failure and came back with a value: recovered.
        if let acceptedInside = facts.caught, HopDecisionInference.returnedAValue(facts.returned) {
            let recovered: Decision = facts.role == .observer ? .continued : acceptedInside ? .passed : .accepted
            return .init(decision: recovered, reason: reason, reasonIsThrown: false, recovered: true)
        }
        return .init(decision: decision, reason: reason, reasonIsThrown: threw && !handedUp, recovered: false)
    }

    @Test func everyCombinationFollowsTheDocumentedRules() {
        var checked = 0
        for (name, returned) in Self.returns {
            for role in [HandlerRole.responder, .observer] {
                for wentOn in [false, true] {
                    for failedInside in [false, true] {
                        for onlyCancelled in [false, true] {
                            for caught in [nil, false, true] as [Bool?] {
                                for override in [nil]
                                    + [Decision.accepted, .passed, .continued, .failed].map({ ($0, "set") })
                                {
                                    let facts = HopDecisionInference.Facts(
                                        returned: returned,
                                        role: role,
                                        wentOn: wentOn,
                                        failedInside: failedInside,
                                        failedOnlyByCancellation: onlyCancelled,
                                        caught: caught,
                                        override: override.map { (decision: $0.0, reason: Optional($0.1)) }
                                    )
                                    let inferred = HopDecisionInference.decide(facts)
                                    let expected = Self.expected(facts)
                                    #expect(
                                        inferred == expected,
                                        "\(name), \(role), wentOn \(wentOn), failedInside \(failedInside), cancelled \(onlyCancelled), caught \(String(describing: caught)), override \(String(describing: override))"
                                    )
                                    checked += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(checked == 8 * 2 * 2 * 2 * 2 * 3 * 5)
    }

    /// The common close's shortcut agrees with the full inference, and reads `wentOn` only when it matters.
    @Test func theCommonCloseAgreesWithTheFullInference() {
        for accepted in [false, true] {
            for role in [HandlerRole.responder, .observer] {
                for wentOn in [false, true] {
                    var asked = false
                    let shortcut = HopDecisionInference.returnedNormally(
                        accepted: accepted,
                        role: role,
                        wentOn: {
                            asked = true
                            return wentOn
                        }()
                    )
                    let full = HopDecisionInference.decide(
                        .init(returned: accepted ? .value : .nothing, role: role, wentOn: wentOn)
                    )
                    #expect(shortcut == full.decision && full.reason == nil && !full.recovered)
                    #expect(asked == (accepted && role == .responder))
                }
            }
        }
    }

    @Test func whatWentOnInsideAHopIsTheStrongestOfItAndItsInside() {
        let all: [Decision] = [.accepted, .passed, .continued, .failed]
        for decision in all {
            for inside in all {
                let went = HopDecisionInference.wentOn(decision, inside: inside)
                let expected: Decision =
                    decision == .failed || inside == .failed
                    ? .failed
                    : decision == .continued && inside != .passed ? .continued : .passed
                #expect(went == expected, "\(decision) with \(inside) inside")
            }
        }
    }
}
