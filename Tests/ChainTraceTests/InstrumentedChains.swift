import ChainTrace

// Chains written the way users already have them, each handler type instrumented with one `traceHop` line.

/// A protocol chain with a `next` property and an Optional result (nil: not handled).
protocol CoinHandling: AnyObject {
    var next: (any CoinHandling)? { get set }
    func validate(_ coin: Coin) -> Coin?
}

final class CoinValidator: CoinHandling {
    var next: (any CoinHandling)?
    let name: String
    let spec: Coin
    let delay: UInt64
    let failure: ValidationFailure?

    init(_ name: String, _ spec: Coin, delay: UInt64 = 0, failure: ValidationFailure? = nil) {
        self.name = name
        self.spec = spec
        self.delay = delay
        self.failure = failure
    }

    func validate(_ coin: Coin) -> Coin? {
        traceHop(name, command: coin, chain: "validators") {
            if delay > 0 { spin(delay) }
            guard matches(coin, spec) else { return next?.validate(coin) }
            return coin
        }
    }
}

/// An observer in the same protocol chain: counts coins and passes them on.
final class CoinCounter: CoinHandling {
    var next: (any CoinHandling)?
    let counter = Counter()

    func validate(_ coin: Coin) -> Coin? {
        traceHop("Counter", command: coin, chain: "validators", role: .observer) {
            counter.increment()
            return next?.validate(coin)
        }
    }
}

/// A throwing protocol chain.
protocol Checking: AnyObject {
    var next: (any Checking)? { get set }
    func check(_ value: Int) throws -> String
}

final class RangeCheck: Checking {
    var next: (any Checking)?
    let name: String
    let range: Range<Int>
    let rejects: Bool

    init(_ name: String, _ range: Range<Int>, rejects: Bool = false) {
        self.name = name
        self.range = range
        self.rejects = rejects
    }

    func check(_ value: Int) throws -> String {
        try traceHop(name, command: value, chain: "checks") {
            if range.contains(value) {
                if rejects { throw ValidationFailure(message: "\(value) rejected by \(name)") }
                return name
            }
            guard let next else { throw ValidationFailure(message: "nobody checks \(value)") }
            return try next.check(value)
        }
    }
}

/// Links `handlers` in order with `setNext` and returns the first.
func linked<Handler>(_ handlers: [Handler], by setNext: (Handler, Handler) -> Void) -> Handler {
    for (handler, following) in zip(handlers, handlers.dropFirst()) { setNext(handler, following) }
    return handlers[0]
}

/// An async chain in the sign-up style: each stage validates, then awaits the next; an error value stops it.
struct SignUpForm: Sendable, Codable {
    var username: String
    var photoURL: String?
}

enum SignUpError: Error, Equatable {
    case usernameTaken(String)
    case uploadFailed
}

protocol SignUpStep: AnyObject, Sendable {
    var nextStep: (any SignUpStep)? { get }
    func handle(_ form: SignUpForm) async -> SignUpError?
}

final class Stage: SignUpStep {
    let name: String
    let nextStep: (any SignUpStep)?
    let work: @Sendable (SignUpForm) async -> (SignUpError?, SignUpForm)

    init(
        _ name: String,
        next: (any SignUpStep)?,
        work: @escaping @Sendable (SignUpForm) async -> (SignUpError?, SignUpForm)
    ) {
        self.name = name
        self.nextStep = next
        self.work = work
    }

    func handle(_ form: SignUpForm) async -> SignUpError? {
        await traceHop(name, command: form, chain: "sign-up", decide: { $0 == nil ? .accepted : .failed }) {
            let (error, updated) = await work(form)
            if let error { return error }
            return await nextStep?.handle(updated)
        }
    }
}

func signUpFlow(takenNames: Set<String> = ["taken"]) -> any SignUpStep {
    let save = Stage("SaveProfile", next: nil) { form in
        await Task.yield()
        return (form.photoURL == nil ? .uploadFailed : nil, form)
    }
    let upload = Stage("UploadPhoto", next: save) { form in
        await Task.yield()
        var updated = form
        updated.photoURL = form.username == "nophoto" ? nil : "https://photos.example/\(form.username)"
        return (nil, updated)
    }
    let check = Stage("CheckUsername", next: upload) { form in
        await Task.yield()
        return (takenNames.contains(form.username) ? .usernameTaken(form.username) : nil, form)
    }
    return check
}
