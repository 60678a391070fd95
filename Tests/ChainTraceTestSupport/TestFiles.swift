import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where tests write their files: one directory per test process, under the system's temporary directory,
/// removed when the process exits — so a test run leaves nothing behind, however many files its tests write.
public enum TestFiles {
    /// This process's directory, made on first use.
    public static var directory: URL { made }

    private static let made: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chaintrace-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFiles.directory) }
        return url
    }()
}
