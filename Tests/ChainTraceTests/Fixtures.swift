import ChainTrace
import Foundation

/// A coin as the vending-machine validators see it.
struct Coin: Sendable, Hashable, Codable, TracedCommand {
    var diameter: Double
    var weight: Double
    var serial: String? = nil

    var commandID: String? { serial }

    static let penny = Coin(diameter: 19.05, weight: 2.5)
    static let nickel = Coin(diameter: 21.21, weight: 5.0)
    static let dime = Coin(diameter: 17.91, weight: 2.268)
    static let quarter = Coin(diameter: 24.26, weight: 5.67)
    static let washer = Coin(diameter: 30, weight: 9)
}

struct ValidationFailure: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A validator that accepts coins close to `spec` and passes the rest.
func validator(_ name: String, _ spec: Coin) -> Handler<Coin, String> {
    Handler(name, canHandle: { matches($0, spec) }) { coin in
        matches(coin, spec) ? .accept(name) : .pass(because: "diameter \(coin.diameter)")
    }
}

func matches(_ coin: Coin, _ spec: Coin) -> Bool {
    abs(coin.diameter - spec.diameter) < spec.diameter * 0.05 && abs(coin.weight - spec.weight) < spec.weight * 0.05
}

func coinChain(recordingInto sink: InMemoryTraceSink? = nil) throws -> Chain<Coin, String> {
    let chain = try Chain<Coin, String>(
        "coins",
        handlers: [
            validator("Penny", .penny), validator("Nickel", .nickel), validator("Dime", .dime),
            validator("Quarter", .quarter),
        ]
    )
    if let sink { chain.recorder = Recorder(sink: sink, payloads: .captured) }
    return chain
}

/// Burns roughly `nanoseconds` of CPU so timings have something to measure.
func spin(_ nanoseconds: UInt64) {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .nanoseconds(Int64(nanoseconds)))
    while clock.now < end {}
}

/// A thread-safe counter for handlers' side effects.
final class Counter: @unchecked Sendable {
    // `value` is only touched under `lock`.
    private var count = 0
    private let lock = NSLock()

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A lock for test doubles that keep state.
final class NSLockBox: Sendable {
    private let lock = NSLock()
    func locked<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }
}
