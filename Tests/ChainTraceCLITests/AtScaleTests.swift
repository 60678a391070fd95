import ChainTraceTestSupport
import Foundation
import Testing

/// Docs/AtScale.md's DuckDB queries, read from the page and run by `Scripts/at-scale-duckdb.py` over
/// `chaintrace export --to jsonl` rows of a generated three-file log (one file gzip-compressed), agree with
/// `chaintrace stats` of the same files: counts exactly, percentiles within the histogram's precision, the same
/// slow handlers.
///
/// Needs DuckDB's Python package (`.ci/run` installs it); without it the test is skipped, except on CI (`CI`
/// set), where it fails.
@Suite("The at-scale recipes against stats")
struct AtScaleTests {
    @Test(.enabled(if: PythonScript.canImport("duckdb") || PythonScript.isCI, "DuckDB's Python package is not installed"))
    func duckDBAgreesWithStats() throws {
        #expect(PythonScript.canImport("duckdb"), "CI needs DuckDB's Python package (pip install duckdb)")
        guard PythonScript.canImport("duckdb"), let binary = CLI.binary.url?.path else { return }
        let run = try PythonScript.run("at-scale-duckdb.py", ["--chaintrace", binary])
        let failures = run.output.split(separator: "\n").filter { $0.hasPrefix("  FAIL") }
        #expect(run.status == 0, "\(failures.joined(separator: "\n"))\n\(run.errors)\n\(run.output.suffix(1_500))")
        #expect(run.output.contains("DuckDB agrees with chaintrace stats"))
    }
}
