import ChainTrace

/// A coin, as the seed's vending machine takes it.
struct Coin {
    var diameter: Double
    var weight: Double
}

/// The seed's synchronous shape: a `next` property and an Optional result (nil: passed on).
protocol CoinHandler: AnyObject {
    var next: CoinHandler? { get set }
    func handle(_ coin: Coin) -> String?
}

final class CoinValidator: CoinHandler {
    let name: String
    let diameter: Double
    var next: CoinHandler?
    var validated = 0

    init(_ name: String, diameter: Double) {
        self.name = name
        self.diameter = diameter
    }

    func handle(_ coin: Coin) -> String? {
        traceHop(name, command: coin, chain: "coins") {
            guard coin.diameter == diameter else { return next?.handle(coin) }
            validated += 1
            return name
        }
    }
}

/// Counts every coin and lets it continue: an observer.
final class CoinCounter: CoinHandler {
    var next: CoinHandler?
    var count = 0

    func handle(_ coin: Coin) -> String? {
        traceHop("CoinCounter", command: coin, chain: "coins", role: .observer) {
            count += 1
            return next?.handle(coin)
        }
    }
}

func makeCoinChain() -> (first: CoinCounter, validators: [CoinValidator]) {
    let counter = CoinCounter()
    let validators = [
        CoinValidator("Penny", diameter: 19.05), CoinValidator("Dime", diameter: 17.91),
        CoinValidator("Quarter", diameter: 24.26),
    ]
    counter.next = validators[0]
    validators[0].next = validators[1]
    validators[1].next = validators[2]
    return (counter, validators)
}
