import Foundation

/// The environment variable `name` as a number, or `fallback` when it is unset or not one.
public func environmentInt(_ name: String, _ fallback: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
}

/// What the framework benchmarks (HTTP middleware, Vapor, gRPC interceptors, NIO handlers) measure and print: for
/// each variant (the framework's own chain first, then ours), nanoseconds a command through 0, 1, 4 or 16 links,
/// the best of interleaved rounds, and the slope from the fewest links to the most — one link's hop.
public struct SlopeTable: Sendable {
    /// The numbers of links measured, fewest first.
    public let counts: [Int]
    /// The variants' names, in the table's order.
    public let variants: [String]
    private var best: [String: Double] = [:]

    /// An empty table of `variants` at `counts` links.
    public init(counts: [Int] = [0, 1, 4, 16], variants: [String]) {
        self.counts = counts
        self.variants = variants
    }

    /// Keeps `nanoseconds` for `variant` at `count` links if it is the best so far.
    public mutating func record(_ variant: String, count: Int, nanoseconds: Double) {
        let key = "\(variant)|\(count)"
        best[key] = min(best[key] ?? .infinity, nanoseconds)
    }

    /// The best nanoseconds of `variant` at `count` links (NaN if not measured).
    public func cell(_ variant: String, _ count: Int) -> Double { best["\(variant)|\(count)"] ?? .nan }

    /// One link's hop in `variant`: the slope from the fewest links to the most.
    public func slope(_ variant: String) -> Double {
        guard let first = counts.first, let last = counts.last, last > first else { return .nan }
        return (cell(variant, last) - cell(variant, first)) / Double(last - first)
    }

    /// `variant`'s hop over `baseline`'s, in nanoseconds.
    public func slope(_ variant: String, over baseline: String) -> Double { slope(variant) - slope(baseline) }

    /// Prints `title`, then the table as Markdown: a row a variant, a column a count of `links` (`middleware`), and
    /// the slope, headed `hop` (`a middleware hop`).
    public func print(title: String, firstColumn: String, links: String, hop: String) {
        Swift.print(title)
        Swift.print("")
        Swift.print(
            "| \(firstColumn) | " + counts.map { "\($0) \(links)" }.joined(separator: " | ")
                + " | \(hop) (slope \(counts.first ?? 0)→\(counts.last ?? 0)) |"
        )
        Swift.print("|---|" + String(repeating: "---:|", count: counts.count + 1))
        for variant in variants {
            Swift.print(
                "| \(variant) | " + counts.map { String(format: "%.0f", cell(variant, $0)) }.joined(separator: " | ")
                    + " | \(String(format: "%.1f", slope(variant))) |"
            )
        }
        Swift.print("")
    }

    /// Prints one link's hop with no recorder in force (`off`) and traced (`traced`) over the framework's own
    /// (`untraced`), against the targets, and what a command costs them with no links at all: `hop` names the hop
    /// (`a middleware hop`), `command` the command (`a request`), `links` the links (`middleware`).
    public func printSummary(
        hop: String,
        command: String,
        links: String,
        untraced: String,
        off: String,
        traced: String
    ) {
        Swift.print(
            String(
                format: "\(hop): no recorder %+.1f ns over untraced (target ≤ +3), traced %+.1f ns (target ≤ +50)",
                slope(off, over: untraced),
                slope(traced, over: untraced)
            )
        )
        let first = counts.first ?? 0
        Swift.print(
            String(
                format: "\(command)'s fixed cost (\(first) \(links)): no recorder %+.0f ns, traced %+.0f ns"
                    + " over untraced",
                cell(off, first) - cell(untraced, first),
                cell(traced, first) - cell(untraced, first)
            )
        )
    }
}

/// `CHAINTRACE_BENCH_ONLY=VARIANT:COUNT`: the one variant (a key of `variants`) and count of links to run alone, for
/// counting its instructions; `nil` when unset. Exits with a message naming the accepted form when it is malformed.
public func singleRun<Variant>(of variants: [String: Variant]) -> (variant: Variant, count: Int)? {
    guard let only = ProcessInfo.processInfo.environment["CHAINTRACE_BENCH_ONLY"] else { return nil }
    let parts = only.split(separator: ":")
    guard parts.count == 2, let variant = variants[String(parts[0])], let count = Int(parts[1]) else {
        let names = variants.keys.sorted().joined(separator: "|")
        FileHandle.standardError.write(Data("CHAINTRACE_BENCH_ONLY must be \(names):COUNT, not \(only)\n".utf8))
        exit(2)
    }
    return (variant, count)
}

/// Runs `body` in a task of its own and waits for it on the calling thread, for a benchmark's synchronous top-level
/// code. A benchmark whose top-level code awaits has an async `main`, whose main thread leaves for Dispatch's loop;
/// valgrind 3.19 then crashes as the first worker thread starts, and its instructions cannot be counted.
public func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let outcome = BlockingOutcome<Value>()
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
        do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
        finished.signal()
    }
    finished.wait()
    return try outcome.result!.get()
}

/// What ``runBlocking(_:)``'s task came to: written by the task before it signals, read after the wait.
private final class BlockingOutcome<Value: Sendable>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}
