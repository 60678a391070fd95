/// What a handler tells the chain after looking at a command.
///
/// ```swift
/// Handler<Coin, Coin>("Quarter") { coin in
///     QuarterSpec.matches(coin) ? .accept(Quarter(coin)) : .pass(because: "weight \(coin.weight) g")
/// }
/// ```
public struct HandlerResponse<Command, Result> {
    @usableFromInline
    enum Kind {
        case accept(Result)
        case pass
        case proceed(Command?)
    }

    @usableFromInline let kind: Kind
    @usableFromInline let reason: String?

    @inlinable
    init(kind: Kind, reason: String?) {
        self.kind = kind
        self.reason = reason
    }

    /// The handler takes the command; the chain stops and `send` returns `result`.
    @inlinable
    public static func accept(_ result: Result) -> Self { Self(kind: .accept(result), reason: nil) }

    /// Not mine: the command goes on to the next handler.
    @inlinable
    public static var pass: Self { Self(kind: .pass, reason: nil) }

    /// Not mine, with a reason the trace keeps ("diameter 19.1 mm out of range").
    @inlinable
    public static func pass(because reason: String) -> Self { Self(kind: .pass, reason: reason) }

    /// Done my part: the command goes on to the next handler (observers, pipeline stages).
    @inlinable
    public static var `continue`: Self { Self(kind: .proceed(nil), reason: nil) }

    /// Done my part, and the next handlers get `command` instead (a pipeline stage handing data on).
    @inlinable
    public static func `continue`(with command: Command) -> Self { Self(kind: .proceed(command), reason: nil) }
}

extension HandlerResponse: Sendable where Command: Sendable, Result: Sendable {}
extension HandlerResponse.Kind: Sendable where Command: Sendable, Result: Sendable {}
