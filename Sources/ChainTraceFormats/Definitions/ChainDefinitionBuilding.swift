public import ChainTrace

extension ChainDefinition {
    /// Builds a real chain of the core library from the definition.
    ///
    /// - Parameters:
    ///   - types: The app's handler types, for handlers with a `"type"`.
    ///   - unknownTypes: Whether a `"type"` missing from `types` is an error or is modelled from its rules.
    ///   - recorder: The chain's recorder.
    ///   - schema: Slots for the fields rules read, matching the stream reader's (faster rules); optional.
    /// - Throws: ``FormatError`` at the handler that could not be made.
    public func makeChain(
        types: HandlerTypes = HandlerTypes(),
        unknownTypes: HandlerTypes.UnknownTypePolicy = .refuse,
        recorder: Recorder = .off,
        schema: FieldSchema? = nil
    ) throws(FormatError) -> Chain<JSONCommand, JSONValue> {
        let chain: Chain<JSONCommand, JSONValue>
        do {
            chain = try Chain(name, recorder: recorder)
        } catch {
            throw self.error(at: "chain", expected: "a chain name", found: error.message)
        }
        let defaultEntry = entries.first
        let ordered = handlers.sorted { left, _ in left.name == defaultEntry }
        for handler in ordered {
            if let members = handler.members {
                var registry: Registry<Handler<JSONCommand, JSONValue>>?
                try building(handler) { () throws(ChainError) in registry = try chain.addRegistry(handler.name, next: nil) }
                // The registry puts equal weights newest first; registering in reverse keeps them in file order.
                for member in members.reversed() {
                    let made = try self.handler(for: member, types: types, unknownTypes: unknownTypes, schema: schema)
                    try building(member) { () throws(ChainError) in try registry?.register(made, weight: member.weight) }
                }
            } else {
                let made = try self.handler(for: handler, types: types, unknownTypes: unknownTypes, schema: schema)
                try building(handler) { () throws(ChainError) in try chain.add(made, next: nil) }
            }
        }
        for handler in handlers where handler.next != nil {
            try building(handler) { () throws(ChainError) in try chain.link(handler.name, to: handler.next) }
        }
        return chain
    }

    /// Makes one handler: the app's type when registered, else from the rules written for it.
    public func handler(
        for definition: HandlerDefinition,
        types: HandlerTypes,
        unknownTypes: HandlerTypes.UnknownTypePolicy,
        schema: FieldSchema? = nil
    ) throws(FormatError) -> Handler<JSONCommand, JSONValue> {
        if let type = definition.type {
            if let factory = types.factory(for: type) {
                let made: Handler<JSONCommand, JSONValue>
                do {
                    made = try factory(definition)
                } catch {
                    throw self.error(at: "\(definition.source).type", expected: "a \"\(type)\" handler", found: "an error: \(error)")
                }
                guard made.name == definition.name else {
                    throw self.error(at: "\(definition.source).type", expected: "the \"\(type)\" factory to keep the name \"\(definition.name)\"", found: "\"\(made.name)\"")
                }
                return made
            }
            if unknownTypes == .refuse {
                let known = types.names.isEmpty ? "none are registered" : "registered: \(types.names.joined(separator: ", "))"
                throw self.error(at: "\(definition.source).type", expected: "a registered handler type (\(known))", found: "\"\(type)\"")
            }
        }
        return Self.ruleHandler(definition, schema: schema)
    }

    /// A handler that does what its definition's rules say, after spending its simulated work.
    static func ruleHandler(_ definition: HandlerDefinition, schema: FieldSchema?) -> Handler<JSONCommand, JSONValue> {
        let name = definition.name
        let accepts = definition.role == .responder ? definition.accepts.map { CompiledRule.make($0, schema: schema) } : nil
        let test: @Sendable (JSONCommand) -> Bool = { command in accepts?.matches(command) ?? false }
        let result = HandlerResponse<JSONCommand, JSONValue>.accept(.string(name))
        let otherwise: HandlerResponse<JSONCommand, JSONValue> = definition.role == .observer ? .continue : .pass
        let work = definition.work ?? 0
        if work == 0, definition.failure == nil {
            // The common case, kept to the test alone: this runs on every hop of a replay. The responses are
            // made here rather than copied from captured ones, so passing copies nothing.
            guard let accepts else {
                if definition.role == .observer { return Handler(name, role: .observer, canHandle: test) { _ in .continue } }
                return Handler(name, role: definition.role, canHandle: test) { _ in .pass }
            }
            // Only responders have rules, so the other answer is always to pass.
            return Handler(name, role: definition.role, canHandle: test) { command in
                accepts.matches(command) ? .accept(.string(name)) : .pass
            }
        }
        let failure = definition.failure.map { failure in
            (when: CompiledRule.make(failure.when, schema: schema), error: failure.error)
        }
        return Handler(name, role: definition.role, canHandle: test) { command in
            SimulatedWork.spin(nanoseconds: work)
            if let failure, failure.when.matches(command) {
                throw DefinedHandlerFailure(handler: name, message: failure.error)
            }
            guard let accepts else { return otherwise }
            return accepts.matches(command) ? result : otherwise
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
