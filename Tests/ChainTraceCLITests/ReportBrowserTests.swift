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

    static var required: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    @Test(.enabled(if: browserAvailable || required, "chromium and chromium-driver are not installed"))
    func reportPagesWorkInChromium() throws {
        #expect(Self.browserAvailable, "CI needs chromium and chromium-driver (apt-get install chromium chromium-driver)")
        guard Self.browserAvailable, let binary = CLI.binary.url?.path else { return }
        let root = BuiltProduct.packageRoot.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "\(root)/Scripts/browser-tests.py", "--chaintrace", binary, "--out", "\(root)/.build/browser-tests"]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let failures = output.split(separator: "\n").filter { $0.hasPrefix("  FAIL") }
        #expect(process.terminationStatus == 0, "browser checks failed:\n\(failures.joined(separator: "\n"))\n\(output.suffix(2_000))")
        #expect(output.contains("all browser checks passed"))
    }
}
