import ArgumentParser

/// `-` as an input file: standard input, as `cat`, `jq` and `sort` read it.
///
/// A `-` becomes `/dev/stdin`, which every reader already opens like any file (a pipe is read front to back,
/// once); errors then name the line of `/dev/stdin` at fault. Standard input can be read only once, so a command
/// refuses it as two of its inputs before reading either: the second would find it empty.
enum StandardInput {
    /// The path a `-` stands for.
    static let path = "/dev/stdin"

    /// An input argument as given, with `-` read as standard input.
    static func path(_ argument: String) -> String {
        argument == "-" ? path : argument
    }

    /// Throws unless standard input is among `inputs` (after ``path(_:)``) at most once.
    static func checkReadOnce(_ inputs: [String?]) throws {
        let readings = inputs.filter { $0 == path }.count
        guard readings <= 1 else {
            throw ValidationError(
                "expected standard input (-) as one input at most, found it \(readings) times; it can be read only once"
            )
        }
    }
}
