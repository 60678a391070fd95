import ArgumentParser

/// `--chain`, shared by `stats`, `render` and `report`: read only the traces of some chains of a log.
struct ChainFilterOptions: ParsableArguments {
    @Option(
        name: .long,
        parsing: .singleValue,
        help: ArgumentHelp(
            "Read only the traces of this chain (repeatable). A log holding several chains (a server's and its client's, a side call into an audit chain) otherwise adds up, as one handler, handlers of different chains that share a name.",
            valueName: "name"
        )
    )
    var chain: [String] = []

    /// The chains to read, or `nil` for all.
    var chains: Set<String>? { chain.isEmpty ? nil : Set(chain) }

    /// Says on standard error that the log held no trace of the chains asked for, when it did not.
    func warnIfAbsent(commands: Int) {
        guard !chain.isEmpty, commands == 0 else { return }
        Terminal.standardError.writeText(
            "chaintrace: warning: no trace of \(TerminalText.shown(chain.joined(separator: ", "))) is in the log\n"
        )
    }
}
