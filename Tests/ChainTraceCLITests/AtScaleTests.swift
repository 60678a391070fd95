import ChainTraceTestSupport
import Foundation
import Testing

/// Docs/AtScale.md's queries, read from the page and run by `Scripts/at-scale.py` in DuckDB and in Spark (PySpark,
/// local mode) over `chaintrace export --to jsonl` rows of a generated three-file log (one file gzip-compressed),
/// agree with `chaintrace stats` of the same files: counts exactly, percentiles within the histogram's precision,
/// the same slow handlers.
///
/// Needs the engines' Python packages (`duckdb`, `pyspark`, and Java for Spark; `.ci/run` installs the packages);
/// without one its test is skipped, except on CI (`CI` set), where it fails.
@Suite("The at-scale recipes against stats")
struct AtScaleTests {
    static func agree(engine: String, module: String) throws {
        #expect(PythonScript.canImport(module), "CI needs the \(module) Python package (pip install \(module))")
        guard PythonScript.canImport(module), let binary = CLI.binary.url?.path else { return }
        let run = try PythonScript.run("at-scale.py", ["--chaintrace", binary, "--engine", engine])
        let failures = run.output.split(separator: "\n").filter { $0.hasPrefix("  FAIL") }
        #expect(
            run.status == 0,
            "\(failures.joined(separator: "\n"))\n\(run.errors.suffix(1_500))\n\(run.output.suffix(1_500))"
        )
        #expect(run.output.contains("agrees with chaintrace stats"))
    }

    @Test(
        .enabled(if: PythonScript.canImport("duckdb") || PythonScript.isCI, "DuckDB's Python package is not installed")
    )
    func duckDBAgreesWithStats() throws {
        try Self.agree(engine: "duckdb", module: "duckdb")
    }

    @Test(.enabled(if: PythonScript.canImport("pyspark") || PythonScript.isCI, "PySpark is not installed"))
    func sparkAgreesWithStats() throws {
        try Self.agree(engine: "spark", module: "pyspark")
    }
}
