public import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

/// A change to a chain written in a command stream, replayed in order with the commands around it — the way an
/// app plugs a module in or a screen registers a responder while it runs.
///
/// In JSON (one line each):
/// `{"change": "insert", "handler": {…}, "before": "Name"}` (or `"after": "Name"`, or `"at": "first"|"last"`,
/// or `"next": "Name"|null` to add it to a tree), `{"change": "remove", "handler": "Name"}`,
/// `{"change": "register", "registry": "Name", "handler": {…, "weight": 10}}`,
/// `{"change": "deregister", "registry": "Name", "handler": "Name"}`,
/// `{"change": "link", "handler": "Name", "next": "Name"|null}`.
public enum ChainChange: Sendable, Hashable {
    /// Adds a handler at a position of the default entry's path.
    case insert(HandlerDefinition, at: ChainPosition)
    /// Adds a handler to a tree, forwarding to `next`.
    case add(HandlerDefinition, next: String?)
    /// Removes a handler or registry.
    case remove(String)
    /// Registers a member in a registry.
    case register(HandlerDefinition, registry: String)
    /// Takes a member out of a registry.
    case deregister(String, registry: String)
    /// Makes a handler forward to `next`.
    case link(String, next: String?)

    /// Makes the change to `chain`, building new handlers the way `definition` builds its own.
    ///
    /// - Throws: `ChainError` when the chain refuses it (an unknown or duplicate name), `FormatError` when a
    ///   new handler cannot be made.
    public func apply(
        to chain: Chain<JSONCommand, JSONValue>,
        definition: ChainDefinition,
        types: HandlerTypes,
        unknownTypes: HandlerTypes.UnknownTypePolicy
    ) throws {
        try apply(to: chain, definition: definition, types: types, unknownTypes: unknownTypes, schema: nil)
    }

    /// Makes the change, new handlers' rules reading the fields `schema` names from a command's slots.
    package func apply(
        to chain: Chain<JSONCommand, JSONValue>,
        definition: ChainDefinition,
        types: HandlerTypes,
        unknownTypes: HandlerTypes.UnknownTypePolicy,
        schema: FieldSchema?
    ) throws {
        switch self {
        case .insert(let handler, let position):
            try chain.insert(
                definition.handler(for: handler, types: types, unknownTypes: unknownTypes, schema: schema),
                at: position
            )
        case .add(let handler, let next):
            try chain.add(
                definition.handler(for: handler, types: types, unknownTypes: unknownTypes, schema: schema),
                next: next
            )
        case .remove(let name):
            try chain.remove(name)
        case .register(let handler, let registry):
            let member = try definition.handler(for: handler, types: types, unknownTypes: unknownTypes, schema: schema)
            try chain.registry(registry).register(member, weight: handler.weight)
        case .deregister(let name, let registry):
            guard try chain.registry(registry).deregister(name) else {
                throw UnregisteredMember(name: name, registry: registry)
            }
        case .link(let name, let next):
            try chain.link(name, to: next)
        }
    }
}

/// A deregistration named a handler the registry does not hold.
public struct UnregisteredMember: Error, Sendable, Hashable, CustomStringConvertible {
    /// The handler named.
    public var name: String
    /// The registry.
    public var registry: String

    public var description: String { "registry \"\(registry)\" has no member \"\(name)\"" }
}

extension ChainChange: CustomStringConvertible {
    /// The change in words: `insert Themes before Window`, `register Search in Screens (weight 10)`.
    public var description: String {
        switch self {
        case .insert(let handler, let position):
            let place =
                switch position {
                case .first: "first"
                case .last: "last"
                case .before(let name): "before \(name)"
                case .after(let name): "after \(name)"
                }
            return "insert \(handler.name) \(place)"
        case .add(let handler, let next): return "add \(handler.name) → \(next ?? "end")"
        case .remove(let name): return "remove \(name)"
        case .register(let handler, let registry):
            return "register \(handler.name) in \(registry) (weight \(handler.weight))"
        case .deregister(let name, let registry): return "deregister \(name) from \(registry)"
        case .link(let name, let next): return "link \(name) → \(next ?? "end")"
        }
    }
}
