import ChainTrace
import Foundation

// The machine's validator chain, written the way such chains usually are: a protocol with a `next` link and
// an Optional result (nil: "not a coin I know"). Instrumenting it took one line per handler type: the
// `traceHop` call wrapping each body. Nothing else in the chain changed.

protocol CoinValidating: AnyObject {
    var next: (any CoinValidating)? { get set }
    func validate(_ coin: InsertedCoin) -> CoinKind?
}

/// Accepts coins within 5 % of one kind's diameter and weight; passes the rest on.
final class CoinValidator: CoinValidating {
    var next: (any CoinValidating)?
    let kind: CoinKind
    let name: String
    /// Extra time this validator's sensor takes per coin, in nanoseconds — the quarter's sensor is slow.
    let sensorDelay: UInt64

    init(_ kind: CoinKind, sensorDelay: UInt64 = 0) {
        self.kind = kind
        self.name = "\(kind.rawValue.capitalized)Validator"
        self.sensorDelay = sensorDelay
    }

    func validate(_ coin: InsertedCoin) -> CoinKind? {
        traceHop(name, command: coin, chain: "vending-machine") {  // ← the one added line
            if sensorDelay > 0 { busyWait(nanoseconds: sensorDelay) }
            let (diameter, weight) = kind.specification
            guard abs(coin.diameter - diameter) <= diameter * 0.05, abs(coin.weight - weight) <= weight * 0.05
            else { return next?.validate(coin) }
            return kind
        }
    }
}

/// Counts every coin and passes it on: an observer in the same chain.
final class CoinCounter: CoinValidating {
    var next: (any CoinValidating)?
    private(set) var count = 0

    func validate(_ coin: InsertedCoin) -> CoinKind? {
        traceHop("CoinCounter", command: coin, chain: "vending-machine", role: .observer) {  // ← the one added line
            count += 1
            return next?.validate(coin)
        }
    }
}

/// Builds counter → penny → nickel → dime → quarter, the quarter's sensor taking `slowSensor` ns.
func makeValidatorChain(slowSensor: UInt64) -> any CoinValidating {
    let chain: [any CoinValidating] = [
        CoinCounter(),
        CoinValidator(.penny),
        CoinValidator(.nickel),
        CoinValidator(.dime),
        CoinValidator(.quarter, sensorDelay: slowSensor),
    ]
    for (validator, following) in zip(chain, chain.dropFirst()) { validator.next = following }
    return chain[0]
}

/// Spins for about `nanoseconds`, standing in for a slow sensor read.
func busyWait(nanoseconds: UInt64) {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .nanoseconds(Int64(nanoseconds)))
    while clock.now < end {}
}
