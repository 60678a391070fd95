import ChainTraceTestSupport
import Foundation
import Testing

/// The report pages in a real browser: `Scripts/browser-tests.py` opens reports of the four samples' logs, a
/// generated 30 000-command log, hostile names and a comparison in headless Chromium over WebDriver, and checks
/// what a user does — paths on the diagram, filters, the hash, time travel, handler panels, sorting, no script
/// from names, compare mode, no console error. Screenshots go to `.build/browser-tests/screenshots`.
///
/// Chromium and chromedriver come from Debian (`chromium`, `chromium-driver`; `.ci/run` installs them). Without
/// them the test is skipped, except on CI (`CI` set), where it fails.
@Suite("Report pages in Chromium")
struct ReportBrowserTests {
    static var browserAvailable: Bool {
        ["/usr/bin/chromium", "/usr/bin/chromedriver"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: browserAvailable || PythonScript.isCI, "chromium and chromium-driver are not installed"))
    func reportPagesWorkInChromium() throws {
        #expect(
            Self.browserAvailable,
            "CI needs chromium and chromium-driver (apt-get install chromium chromium-driver)"
        )
        guard Self.browserAvailable, let binary = CLI.binary.url?.path else { return }
        let run = try PythonScript.run(
            "browser-tests.py",
            [
                "--chaintrace", binary, "--out",
                BuiltProduct.packageRoot.appendingPathComponent(".build/browser-tests").path,
            ]
        )
        let failures = run.output.split(separator: "\n").filter { $0.hasPrefix("  FAIL") }
        #expect(
            run.status == 0,
            "browser checks failed:\n\(failures.joined(separator: "\n"))\n\(run.errors)\n\(run.output.suffix(2_000))"
        )
        #expect(run.output.contains("all browser checks passed"))
    }
}
