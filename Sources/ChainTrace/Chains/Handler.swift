/// A named step of a ``Chain``: what to do with a command, and optionally how to tell without doing it.
///
/// ```swift
/// let penny = Handler<Coin, Coin>("Penny", canHandle: { $0.isPenny }) { coin in
///     coin.isPenny ? .accept(coin) : .pass
/// }
/// let analytics = Handler<Coin, Coin>.observer("Analytics") { coin in counter.add(coin) }
/// ```
public struct Handler<Command, Result>: ChainMember {
    /// Everything in one reference, so a chain walk copies one pointer per hop.
    @usableFromInline let box: HandlerBox<Command, @Sendable (Command) throws -> HandlerResponse<Command, Result>>

    /// The handler's name, unique within its chain.
    public var name: String { box.name }
    /// Whether it may accept or only observes.
    public var role: HandlerRole { box.role }
    @inlinable var body: @Sendable (Command) throws -> HandlerResponse<Command, Result> { box.body }
    var predict: @Sendable (Command) -> HandlerPrediction { box.predict }

    /// Creates a handler from closures.
    ///
    /// - Parameters:
    ///   - name: Unique within the chain.
    ///   - role: ``HandlerRole/responder`` unless it only observes.
    ///   - canHandle: The dry-run test: would this handler accept the command? Leave out if it cannot tell.
    ///   - handle: The real work.
    public init(
        _ name: String,
        role: HandlerRole = .responder,
        canHandle: (@Sendable (Command) -> Bool)? = nil,
        handle: @escaping @Sendable (Command) throws -> HandlerResponse<Command, Result>
    ) {
        box = HandlerBox(name: name, role: role, body: handle, predict: HandlerPrediction.from(canHandle, role: role))
    }

    /// Creates a handler whose dry run predicts every decision, failures included.
    ///
    /// Use it when `handle` is decided by something you can evaluate without side effects — the way handlers
    /// built from a chain definition are: `predict` and `handle` then share one decision, and `whoWouldHandle`
    /// agrees with a real send on every command.
    ///
    /// - Parameters:
    ///   - name: Unique within the chain.
    ///   - role: ``HandlerRole/responder`` unless it only observes.
    ///   - predict: What the handler would do with a command, without doing it.
    ///   - handle: The real work.
    public init(
        _ name: String,
        role: HandlerRole = .responder,
        predict: @escaping @Sendable (Command) -> HandlerPrediction,
        handle: @escaping @Sendable (Command) throws -> HandlerResponse<Command, Result>
    ) {
        box = HandlerBox(name: name, role: role, body: handle, predict: predict)
    }

    /// Wraps a handler type of your own.
    public init<Wrapped: ChainHandler>(_ handler: Wrapped) where Wrapped.Command == Command, Wrapped.Result == Result {
        let role = handler.role
        box = HandlerBox(
            name: handler.name,
            role: role,
            body: { try handler.handle($0) },
            predict: { HandlerPrediction.from(handler.canHandle($0), role: role) }
        )
    }

    /// An observer: runs `observe` on every command and always lets it continue.
    public static func observer(_ name: String, observe: @escaping @Sendable (Command) throws -> Void) -> Self {
        Self(name, role: .observer, canHandle: { _ in false }) { command in
            try observe(command)
            return .continue
        }
    }
}

/// A named async step of an ``AsyncChain``.
///
/// ```swift
/// let upload = AsyncHandler<SignUp, Account>("UploadPhoto") { form in
///     let url = try await photos.upload(form.photo)
///     return .continue(with: form.with(photoURL: url))
/// }
/// ```
public struct AsyncHandler<Command, Result>: ChainMember {
    /// Everything in one reference, so a chain walk copies one pointer per hop.
    @usableFromInline let box: HandlerBox<Command, @Sendable (Command) async throws -> HandlerResponse<Command, Result>>

    /// The handler's name, unique within its chain.
    public var name: String { box.name }
    /// Whether it may accept or only observes.
    public var role: HandlerRole { box.role }
    @inlinable var body: @Sendable (Command) async throws -> HandlerResponse<Command, Result> { box.body }
    var predict: @Sendable (Command) -> HandlerPrediction { box.predict }

    /// Creates an async handler from closures; see ``Handler/init(_:role:canHandle:handle:)``.
    public init(
        _ name: String,
        role: HandlerRole = .responder,
        canHandle: (@Sendable (Command) -> Bool)? = nil,
        handle: @escaping @Sendable (Command) async throws -> HandlerResponse<Command, Result>
    ) {
        box = HandlerBox(name: name, role: role, body: handle, predict: HandlerPrediction.from(canHandle, role: role))
    }

    /// Creates an async handler whose dry run says exactly what it would do — accept, pass, continue, fail with an
    /// error, or that it cannot tell; see ``Handler/init(_:role:predict:handle:)``.
    public init(
        _ name: String,
        role: HandlerRole = .responder,
        predict: @escaping @Sendable (Command) -> HandlerPrediction,
        handle: @escaping @Sendable (Command) async throws -> HandlerResponse<Command, Result>
    ) {
        box = HandlerBox(name: name, role: role, body: handle, predict: predict)
    }

    /// Wraps an async handler type of your own.
    public init<Wrapped: AsyncChainHandler>(_ handler: Wrapped)
    where Wrapped.Command == Command, Wrapped.Result == Result {
        let role = handler.role
        box = HandlerBox(
            name: handler.name,
            role: role,
            body: { try await handler.handle($0) },
            predict: { HandlerPrediction.from(handler.canHandle($0), role: role) }
        )
    }

    /// Wraps a synchronous handler so it can sit in an async chain.
    public init(_ handler: Handler<Command, Result>) {
        box = HandlerBox(name: handler.name, role: handler.role, body: handler.body, predict: handler.predict)
    }

    /// An observer: runs `observe` on every command and always lets it continue.
    public static func observer(_ name: String, observe: @escaping @Sendable (Command) async throws -> Void) -> Self {
        Self(name, role: .observer, canHandle: { _ in false }) { command in
            try await observe(command)
            return .continue
        }
    }
}

/// What a chain needs to know about its handlers, sync or async.
public protocol ChainMember: Sendable {
    /// The handler's name, unique within its chain.
    var name: String { get }
    /// Whether it may accept or only observes.
    var role: HandlerRole { get }
}

/// A handler's name, role, body and dry-run prediction, shared by every copy of the handler.
@usableFromInline
final class HandlerBox<Command, Body: Sendable>: Sendable {
    let name: String
    let role: HandlerRole
    @usableFromInline let body: Body
    let predict: @Sendable (Command) -> HandlerPrediction

    init(name: String, role: HandlerRole, body: Body, predict: @escaping @Sendable (Command) -> HandlerPrediction) {
        self.name = name
        self.role = role
        self.body = body
        self.predict = predict
    }
}
