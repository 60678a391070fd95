import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation

/// Runs the built `chaintrace` the way a user does, from the package root.
enum CLI {
    static let binary = BuiltProduct(name: "chaintrace")
    static let fixtures = "Tests/ChainTraceCLITests/Fixtures"

    /// Runs the built `chaintrace` with `arguments`, as an array.
    static func run(_ arguments: [String]) throws -> BuiltProduct.Output {
        try binary.run(arguments)
    }

    static func run(_ arguments: String...) throws -> BuiltProduct.Output {
        try binary.run(arguments)
    }

    static func fixture(_ name: String) -> String { "\(fixtures)/\(name)" }

    /// A fresh temporary directory for files a test writes.
    static func temporaryDirectory() throws -> URL {
        try TestFiles.newDirectory("chaintrace-cli")
    }

    /// The unfinished output files (`.name.partial-…`) left in `directory`.
    static func partialFiles(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.contains(".partial-")
        }
    }

    /// `value` as JSON text, written by the library's strict writer.
    static func literal(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes `bytes` to a file `name` in `directory` and returns its path.
    static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Replays `stream` through `definition` into a new trace log and returns the log's path.
    static func recordedLog(_ definition: String, _ stream: String, named name: String = "recorded.jsonl") throws
        -> String
    {
        let log = try temporaryDirectory().appendingPathComponent(name).path
        let output = try run("replay", definition, stream, "--trace-out", log)
        guard FileManager.default.fileExists(atPath: log) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: output.standardError])
        }
        return log
    }

    /// Parses what the command printed with `--format json`.
    static func json(_ output: BuiltProduct.Output) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8))
        return value as? [String: Any] ?? [:]
    }
}

/// The Python scripts some tests run (browser checks, OTLP validation, the at-scale recipes).
enum PythonScript {
    /// Whether `python3` can import `module`.
    static func canImport(_ module: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(module)"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether this is CI (`CI` set), where a test skipped for a missing tool fails instead.
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// Runs `Scripts/<name>` (a path from there: `../Examples/…` for an example's script) with `arguments` from the
    /// package root; its status, standard output and standard error.
    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", BuiltProduct.packageRoot.appendingPathComponent("Scripts/\(name)").path] + arguments
        process.currentDirectoryURL = BuiltProduct.packageRoot
        // Standard error to a file, so that neither stream can fill a pipe and block the script while the other is read.
        let errorFile = TestFiles.directory.appendingPathComponent(
            "\((name as NSString).lastPathComponent)-\(UUID()).stderr"
        )
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), errors)
    }
}
