// Measures chain diagrams to SVG in-process (DOT made in Swift, laid out and drawn by libgvc) beside `dot -Tsvg`
// run as a process on the same DOT file, in one run, for chains of 100 and 1000 handlers. Release build only.
//
//   swift run -c release --package-path Benchmarks chaintrace-render-benchmarks
//
// Environment: CHAINTRACE_BENCH_REPEATS (default 15; the median is reported). `dot` comes from the Debian
// package `graphviz`; without it that column says so.

import ChainTrace
import ChainTraceGraphviz
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let repeats = getenv("CHAINTRACE_BENCH_REPEATS").flatMap { Int(String(cString: $0)) } ?? 15

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// A straight chain of `count` handlers with a registry of three in the middle, as a definition would give.
func chain(_ count: Int) -> ChainGraph {
    var handlers = (0..<count).map {
        ChainGraph.Handler(name: "Handler\($0)", role: $0 % 25 == 0 ? .observer : .responder)
    }
    handlers[count / 2] = ChainGraph.Handler(
        name: "Handler\(count / 2)",
        registry: "Handler\(count / 2)",
        isRegistry: true
    )
    for member in 1...3 { handlers[count / 2 + member].registry = "Handler\(count / 2)" }
    let names = handlers.map(\.name)
    return ChainGraph(
        name: "bench\(count)",
        handlers: handlers,
        links: zip(names, names.dropFirst()).map { ChainGraph.Link(from: $0, to: $1) },
        entries: [names[0]]
    )
}

func dotExecutable() -> String? {
    for directory in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
    where FileManager.default.isExecutableFile(atPath: directory + "/dot") {
        return directory + "/dot"
    }
    return nil
}

let dotPath = dotExecutable()
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chaintrace-render-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

print("chaintrace render benchmarks — chain structure to SVG, median of \(repeats) runs")
print("")
print(
    "| handlers | DOT text (Swift) | ChainTrace in-process: DOT + libgvc → SVG | `dot -Tsvg` process | ratio (dot ÷ ours) | target |"
)
print("|---|---|---|---|---|---|")
for (count, target) in [(100, "≤ 10 ms"), (1000, "≤ 300 ms")] {
    let graph = chain(count)
    var dotTimes: [Double] = []
    var inProcess: [Double] = []
    var external: [Double] = []
    var text = ""
    _ = try GraphvizRenderer.render(ChainDiagram.structure(graph).text, as: .svg)  // warm-up: plugins load once
    for _ in 0..<repeats {
        dotTimes.append(milliseconds { text = ChainDiagram.structure(graph).text })
        inProcess.append(
            try milliseconds { _ = try GraphvizRenderer.render(ChainDiagram.structure(graph).text, as: .svg) }
        )
    }
    if let dotPath {
        let input = directory.appendingPathComponent("chain\(count).dot")
        try text.write(to: input, atomically: true, encoding: .utf8)
        for _ in 0..<repeats {
            external.append(
                try milliseconds {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: dotPath)
                    process.arguments = ["-Tsvg", input.path, "-o", directory.appendingPathComponent("out.svg").path]
                    try process.run()
                    process.waitUntilExit()
                }
            )
        }
    }
    let ours = median(inProcess)
    let theirs =
        external.isEmpty ? "not installed (apt-get install graphviz)" : String(format: "%.1f ms", median(external))
    let ratio = external.isEmpty ? "-" : String(format: "%.1f×", median(external) / ours)
    print(
        "| \(count) | \(String(format: "%.2f ms", median(dotTimes))) | \(String(format: "%.1f ms", ours)) | \(theirs) | \(ratio) | \(target) |"
    )
}
