import ChainTraceFiles

/// `-` as an output file: standard output, as `sort -o -` and `curl -o -` write it.
///
/// A `-` becomes `/dev/stdout`, which `AtomicOutputFile` writes into — descriptor 1, as the shell opened it — when
/// the command finishes (rather than renaming a file over it): a pipe or terminal gets the whole output or nothing,
/// and standard output redirected to a file gets it where the shell opened it (after the old content, for `>>`).
enum StandardOutput {
    /// The path a `-` stands for.
    static let path = "/dev/stdout"

    /// An output argument as given, with `-` read as standard output.
    static func path(_ argument: String) -> String {
        argument == "-" ? path : argument
    }
}
