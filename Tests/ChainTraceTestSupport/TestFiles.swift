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

extension TestFiles {
    /// A new, empty directory of this process's, its name `prefix` and a unique suffix.
    public static func newDirectory(_ prefix: String) throws -> URL {
        let url = directory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Compresses the file at `path` with the system's `gzip` (replacing it by `path.gz`, as gzip does) and returns
    /// the compressed file's path; `gzip`'s exit status must be 0.
    public static func gzip(path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-f", path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "gzip exited with \(process.terminationStatus) for \(path)"]
            )
        }
        return path + ".gz"
    }

    /// What the gzip file at `path` holds, decompressed by the system's `gzip` (which also checks it whole: a
    /// damaged or cut file throws).
    public static func gunzip(path: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [NSLocalizedDescriptionKey: "gzip -dc exited with \(process.terminationStatus) for \(path)"]
            )
        }
        return data
    }
}
