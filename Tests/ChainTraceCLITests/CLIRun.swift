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
        let url = TestFiles.directory.appendingPathComponent("chaintrace-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
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
    static func recordedLog(_ definition: String, _ stream: String, named name: String = "recorded.jsonl") throws -> String {
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
