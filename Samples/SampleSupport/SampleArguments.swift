/// The arguments most samples take: an input file, `--trace-out FILE` and `--diagram FILE`.
public struct SampleArguments: Sendable {
    /// The input (commands, coins, sign-ups).
    public var input: String
    /// Where the trace log goes.
    public var traceLog: String
    /// Where the diagram goes; its extension picks the format.
    public var diagram: String

    /// Reads `arguments` over the defaults; `nil` when the user asked for help, which has then been printed.
    ///
    /// - Throws: ``SampleUsageError`` for an option without its value.
    public static func parse(_ arguments: [String], defaults: SampleArguments, usage: String) throws -> SampleArguments?
    {
        var result = defaults
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--trace-out", "--diagram":
                guard let path = remaining.popFirst() else { throw SampleUsageError("\(argument) needs a file name") }
                if argument == "--trace-out" { result.traceLog = path } else { result.diagram = path }
            case "-h", "--help":
                print("usage: \(usage)")
                return nil
            default:
                result.input = argument
            }
        }
        return result
    }

    /// Creates the defaults.
    public init(input: String, traceLog: String, diagram: String) {
        self.input = input
        self.traceLog = traceLog
        self.diagram = diagram
    }
}
