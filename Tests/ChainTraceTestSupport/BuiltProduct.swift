public import Foundation

/// Runs an executable the package built, the way a user would, and captures what it printed.
public struct BuiltProduct: Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }

    /// What a run printed, and how it ended.
    public struct Output: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        /// Whether it was stopped for running past its time limit.
        public var timedOut = false
    }

    /// The package's root folder (three levels above this file).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where `swift build` put the executable: beside the test bundle.
    public var url: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Self.packageRoot.appendingPathComponent(".build/debug"),
        ]
        return candidates.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs it with `arguments` in `directory`, with NO_COLOR set, a fixed terminal width, and `extraEnvironment`;
    /// stopped (and ``Output/timedOut``) if it runs longer than `timeLimit` seconds.
    public func run(
        _ arguments: [String], in directory: URL = packageRoot, extraEnvironment: [String: String] = [:],
        timeLimit: Double? = nil
    ) throws -> Output {
        guard let url else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(name) was not built"])
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["COLUMNS"] = "120"
        environment.merge(extraEnvironment) { _, new in new }
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let stopped = LockedFlag()
        if let timeLimit {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) {
                guard process.isRunning else { return }
                stopped.set()
                process.terminate()
            }
        }
        // Read both pipes at once: a child that fills one while we wait on the other would never finish.
        let errorReader = PipeReader(error.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorReader.wait()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            timedOut: stopped.isSet
        )
    }
}

/// A flag one thread sets and another reads.
final class LockedFlag: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Reads a pipe to its end on another thread.
final class PipeReader: @unchecked Sendable {
    // @unchecked: `data` is written once by the reading thread before `done` is signalled, and read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
