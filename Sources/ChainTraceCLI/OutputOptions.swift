import ArgumentParser

/// How a report is printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// Aligned tables for people, coloured on a terminal unless NO_COLOR is set.
    case text
    /// One JSON object, keys sorted, for scripts.
    case json
}

/// `--format`, shared by every subcommand.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: text (aligned tables) or json (one object, keys sorted).")
    var format: OutputFormat = .text

    var style: Style { Style(enabled: format == .text && Terminal.standardOutput.usesColor) }
}
