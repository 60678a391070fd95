public import ChainTrace
import ChainTraceJSON

/// The app's own Swift handler types, by the names chain definitions use in `"type"`.
///
/// A white-label app keeps one definition file per configuration; each names the modules it wants, and the
/// app registers the Swift type behind each name once:
///
/// ```swift
/// var types = HandlerTypes()
/// types.register("Analytics") { definition in
///     .observer(definition.name) { command in analytics.log(command.kind) }
/// }
/// let chain = try ChainDefinition.load(path: "app-b.chain.json").makeChain(types: types)
/// ```
public struct HandlerTypes: Sendable {
    /// Makes a handler from its definition (its name, options and rules as written).
    public typealias Factory = @Sendable (HandlerDefinition) throws -> Handler<JSONCommand, JSONValue>

    /// What to do with a `"type"` nobody registered.
    public enum UnknownTypePolicy: Sendable {
        /// Refuse the definition (an app: a missing module is a bug).
        case refuse
        /// Model the handler from its rules in the file (the CLI, which knows no app types).
        case modelFromRules
    }

    private var factories: [String: Factory] = [:]

    /// No types: every handler is made from its rules.
    public init() {}

    /// Registers the factory for `type`, replacing any earlier one.
    public mutating func register(_ type: String, factory: @escaping Factory) {
        factories[type] = factory
    }

    /// The names registered.
    public var names: [String] { factories.keys.sorted() }

    func factory(for type: String) -> Factory? { factories[type] }
}
