import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

/// The file a command is to write, checked before the command does any work: no directory, none of the files it
/// reads — finished, the output would replace an input (a command stream, a recorded log), perhaps its only copy —
/// and no trace log a sink is writing.
enum OutputTarget {
    /// Throws if `output` (when given) is a directory or one of `inputs`: paths as the user gave them, each a file,
    /// a directory or a pattern, under any name — another spelling or a link.
    static func check(_ output: String?, reading inputs: [String]) throws(FormatError) {
        guard let output else { return }
        // An input that cannot be expanded is reported by the command's own reading, where it would be now.
        let files = inputs.flatMap { path in (try? TraceLogReader.files(at: path)) ?? [] }
        try AtomicOutputFile.checkTarget(output, inputs: inputs + files)
        // Nor a trace log an app is writing: replaced, its sink would go on writing into a file no longer there.
        try TraceLogSink.checkNotBeingWritten(output)
    }

    /// Whether the file at `path` is written gzip-compressed: its name ends in `.gz`, as `traces.jsonl.gz`, which
    /// every reader of logs and streams reads as it is.
    static func compresses(_ path: String) -> Bool {
        path.hasSuffix(".gz")
    }

    /// The output file at `path`, published whole on `commit()` — gzip-compressed when its name says so.
    static func file(_ path: String) throws(FormatError) -> AtomicOutputFile {
        try AtomicOutputFile(path: path, compressed: compresses(path))
    }
}
