import ChainTrace
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A progress bar on stderr, drawn only when stderr is a terminal and the work has taken over a second. Any
/// thread may report progress (a log read in parallel): drawing is under a lock.
final class ProgressBar: Sendable {
    private let total: Int
    private let terminal = Terminal.standardError
    private let start = ProgressBar.now()
    /// Whether the bar is on screen.
    private let drawn = LockedValue(false)
    private let enabled: Bool

    /// Tracks work measured in bytes, `total` in all (0 when unknown).
    init(totalBytes total: Int) {
        self.total = total
        enabled = terminal.isInteractive
    }

    /// Reports `done` bytes so far.
    func update(_ done: Int) {
        guard enabled, Self.now() - start > 1 else { return }
        let width = 30
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let megabytes = Double(done) / 1_000_000
        drawn.withLock { drawn in
            terminal.writeData(
                "\r\(bar) \(Int(fraction * 100))%  \(Int(megabytes)) MB  \(Int(megabytes / (Self.now() - start))) MB/s "
            )
            drawn = true
        }
    }

    /// Clears the bar.
    func finish() {
        drawn.withLock { drawn in
            if drawn { terminal.writeData("\r\u{1B}[K") }
        }
    }

    /// The size of the file at `path`, or 0.
    static func size(of path: String) -> Int {
        FileBytes.size(of: path)
    }

    /// The total size of `paths`.
    static func size(of paths: [String]) -> Int {
        paths.reduce(0) { $0 &+ size(of: $1) }
    }

    /// The total size of the trace logs at `paths`: files, directories and patterns, as readers expand them.
    static func size(ofLogs paths: [String]) throws(FormatError) -> Int {
        var files: [String] = []
        for path in paths { files += try TraceLogReader.files(at: path) }
        return size(of: files)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
