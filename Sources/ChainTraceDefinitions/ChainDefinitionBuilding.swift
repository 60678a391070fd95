public import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

extension ChainDefinition {
    /// Builds a real chain of the core library from the definition.
    ///
    /// - Parameters:
    ///   - types: The app's handler types, for handlers with a `"type"`.
    ///   - unknownTypes: Whether a `"type"` missing from `types` is an error or is modelled from its rules.
    ///   - recorder: The chain's recorder.
    /// - Throws: `FormatError` at the handler that could not be made.
    public func makeChain(
        types: HandlerTypes = HandlerTypes(),
        unknownTypes: HandlerTypes.UnknownTypePolicy = .refuse,
        recorder: Recorder = .off
    ) throws(FormatError) -> Chain<JSONCommand, JSONValue> {
        try makeChain(types: types, unknownTypes: unknownTypes, recorder: recorder, schema: nil)
    }

    /// Builds the chain with rules that read the fields `schema` names from a command's slots (the replay's
    /// fast path), for commands read with the same schema.
    package func makeChain(
        types: HandlerTypes,
        unknownTypes: HandlerTypes.UnknownTypePolicy,
        recorder: Recorder = .off,
        schema: FieldSchema?
    ) throws(FormatError) -> Chain<JSONCommand, JSONValue> {
        let chain: Chain<JSONCommand, JSONValue>
        do {
            chain = try Chain(name, recorder: recorder)
        } catch {
            throw self.error(at: "chain", expected: "a chain name", found: error.message)
        }
        try chain.editingInOneGo { () throws(FormatError) in
            try build(into: chain, types: types, unknownTypes: unknownTypes, schema: schema)
        }
        return chain
    }

    /// Adds the handlers and links to `chain`, which is empty.
    private func build(
        into chain: Chain<JSONCommand, JSONValue>,
        types: HandlerTypes,
        unknownTypes: HandlerTypes.UnknownTypePolicy,
        schema: FieldSchema?
    ) throws(FormatError) {
        let defaultEntry = entries.first
        let ordered = handlers.sorted { left, _ in left.name == defaultEntry }
        for handler in ordered {
            if let members = handler.members {
                var registry: Registry<Handler<JSONCommand, JSONValue>>?
                try building(handler) { () throws(ChainError) in
                    registry = try chain.addRegistry(handler.name, next: nil)
                }
                // A running registry puts equal weights newest first (RegistryOrder); registering the members in
                // reverse file order makes equal weights keep file order, as the format documents.
                for member in members.reversed() {
                    let made = try self.handler(for: member, types: types, unknownTypes: unknownTypes, schema: schema)
                    try building(member) { () throws(ChainError) in try registry?.register(made, weight: member.weight)
                    }
                }
            } else {
                let made = try self.handler(for: handler, types: types, unknownTypes: unknownTypes, schema: schema)
                try building(handler) { () throws(ChainError) in try chain.add(made, next: nil) }
            }
        }
        for handler in handlers where handler.next != nil {
            try building(handler) { () throws(ChainError) in try chain.link(handler.name, to: handler.next) }
        }
    }

    /// Makes one handler: the app's type when registered, else from the rules written for it.
    public func handler(
        for definition: HandlerDefinition,
        types: HandlerTypes,
        unknownTypes: HandlerTypes.UnknownTypePolicy
    ) throws(FormatError) -> Handler<JSONCommand, JSONValue> {
        try handler(for: definition, types: types, unknownTypes: unknownTypes, schema: nil)
    }

    /// Makes one handler whose rules read the fields `schema` names from a command's slots.
    package func handler(
        for definition: HandlerDefinition,
        types: HandlerTypes,
        unknownTypes: HandlerTypes.UnknownTypePolicy,
        schema: FieldSchema?
    ) throws(FormatError) -> Handler<JSONCommand, JSONValue> {
        if let type = definition.type {
            if let factory = types.factory(for: type) {
                let made: Handler<JSONCommand, JSONValue>
                do {
                    made = try factory(definition)
                } catch {
                    throw self.error(
                        at: "\(definition.source).type",
                        expected: "a \"\(type)\" handler",
                        found: "an error: \(error)"
                    )
                }
                guard made.name == definition.name else {
                    throw self.error(
                        at: "\(definition.source).type",
                        expected: "the \"\(type)\" factory to keep the name \"\(definition.name)\"",
                        found: "\"\(made.name)\""
                    )
                }
                return made
            }
            if unknownTypes == .refuse {
                let known =
                    types.names.isEmpty ? "none are registered" : "registered: \(types.names.joined(separator: ", "))"
                throw self.error(
                    at: "\(definition.source).type",
                    expected: "a registered handler type (\(known))",
                    found: "\"\(type)\""
                )
            }
        }
        return Self.ruleHandler(definition, schema: schema)
    }

    /// A handler that does what its definition's rules say, after spending its simulated work.
    ///
    /// Its real run and its dry run share one decision (``DefinedDecision``), so `which` and `replay` agree on every
    /// command: the dry run is the real decision without the simulated work.
    static func ruleHandler(_ definition: HandlerDefinition, schema: FieldSchema?) -> Handler<JSONCommand, JSONValue> {
        let name = definition.name
        let decision = DefinedDecision(definition, schema: schema)
        let predict: @Sendable (JSONCommand) -> HandlerPrediction = { command in decision.prediction(for: command) }
        let work = definition.work ?? 0
        // The common case, kept to the decision alone: this runs on every hop of a replay.
        guard work > 0 else {
            return Handler(name, role: definition.role, predict: predict) { try decision.response(to: $0) }
        }
        return Handler(name, role: definition.role, predict: predict) { command in
            SimulatedWork.spin(nanoseconds: work)
            return try decision.response(to: command)
        }
    }

    private func building(_ handler: HandlerDefinition, _ edit: () throws(ChainError) -> Void) throws(FormatError) {
        do {
            try edit()
        } catch {
            throw self.error(at: handler.source, expected: "a handler the chain can take", found: error.message)
        }
    }
}
