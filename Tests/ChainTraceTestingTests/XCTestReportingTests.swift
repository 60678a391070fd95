import ChainTrace
import ChainTraceTesting
import XCTest

/// A test case run by hand, so its failures are counted in its own run rather than the suite's.
final class FailingProbe: XCTestCase {
    nonisolated(unsafe) static var failureLine: UInt = 0

    func failingAssertion() throws {
        let traces = try captureTraces { _ = try makeEditorChain().send("edit") }
        Self.failureLine = #line + 1
        expectPath(traces[0], ["Cell", "Window"])
    }
}

/// The XCTest side of the one reporting path: an assertion failing inside an XCTest test fails that test, at the
/// caller's file and line, with the same message Swift Testing shows.
final class XCTestReportingTests: XCTestCase {
    func testFailingAssertionFailsTheXCTestCaseThatMadeIt() throws {
        #if os(Linux)
            let probe = FailingProbe(name: "failingAssertion") { testCase in
                try (testCase as? FailingProbe)?.failingAssertion()
            }
            let observer = FailureObserver()
            XCTestObservationCenter.shared.addTestObserver(observer)
            probe.run()
            XCTestObservationCenter.shared.removeTestObserver(observer)
            XCTAssertEqual(probe.testRun?.failureCount, 1)
            XCTAssertEqual(observer.failures.count, 1)
            XCTAssertTrue(
                observer.failures.first?.description.hasPrefix("Path differs:\n  expected: Cell → Window") == true
            )
            XCTAssertEqual(observer.failures.first?.line, Int(FailingProbe.failureLine))
            XCTAssertTrue(observer.failures.first?.file?.hasSuffix("XCTestReportingTests.swift") == true)
        #endif
    }
}

#if os(Linux)
    /// Collects the failures XCTest records.
    final class FailureObserver: NSObject, XCTestObservation {
        nonisolated(unsafe) var failures: [(description: String, file: String?, line: Int)] = []

        func testCase(
            _ testCase: XCTestCase,
            didFailWithDescription description: String,
            inFile filePath: String?,
            atLine lineNumber: Int
        ) {
            failures.append((description, filePath, lineNumber))
        }
    }
#endif
