public import ChainTraceDefinitions

extension ChainProfile {
    /// Declares every handler of `definition`, with its budget: each gets a row even if no command reaches it,
    /// in the definition's order; a registry, then its members in the order commands reach them.
    public mutating func declareHandlers(of definition: ChainDefinition) {
        for handler in definition.handlers {
            declare(handler.name, budgetNanoseconds: handler.budget)
            for member in ChainDefinitionLinter.ordered(handler.members ?? []) {
                declare(member.name, budgetNanoseconds: member.budget)
            }
        }
    }

    /// Declares the budgets `definition` gives its handlers and registry members, and nothing else: a profile of
    /// a log that holds other chains too gets no rows for handlers it never saw.
    public mutating func declareBudgets(of definition: ChainDefinition) {
        for handler in definition.handlers {
            for member in [handler] + (handler.members ?? []) where member.budget != nil {
                declare(member.name, budgetNanoseconds: member.budget)
            }
        }
    }
}
