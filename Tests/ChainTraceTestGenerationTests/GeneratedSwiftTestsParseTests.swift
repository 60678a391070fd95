import ChainTrace
import ChainTraceJSON
import ChainTraceTestGeneration
import ChainTraceTestSupport
import Foundation
import Testing

/// `gen-tests` output for logs whose ids, kinds, handler names, errors and payloads hold anything — quotes,
/// backslashes, newlines, control characters, bidi overrides, any Unicode — is Swift that the compiler's parser
/// accepts, with every name written as a literal.
@Suite("Generated Swift tests parse")
struct GeneratedSwiftTestsParseTests {
    /// The Swift compiler beside the running toolchain.
    static var swiftc: String? {
        let candidates =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" } + [
                "/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc",
            ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func trace(_ random: inout SeededGenerator, id: UInt64) -> Trace {
        let names = (0..<3).map { _ in random.hostileName(maximumLength: 6) }
        let hops = names.enumerated().map { position, name in
            Hop(
                handler: name,
                position: position,
                decision: position == 2 ? .failed : .passed,
                inclusiveDuration: 1,
                selfDuration: 1
            )
        }
        let payload: JSONValue = .object([
            random.hostileName(maximumLength: 4): .string(random.hostileName()),
            "n": .double(Double(Int.random(in: -999...999, using: &random)) / 7),
            "list": .array([.integer(Int64.random(in: .min ... .max, using: &random)), .null, .bool(true)]),
        ])
        return Trace(
            id: id,
            commandKind: random.hostileName(),
            commandID: random.chance(0.8) ? random.hostileName() : nil,
            payload: payload,
            entry: names[0],
            chain: "c",
            hops: hops,
            outcome: random.chance(0.5) ? .failed(at: names[2], error: random.hostileName()) : .accepted(by: names[1]),
            duration: 3
        )
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func theCompilerParsesWhatGenTestsWrites(seed: UInt64) throws {
        guard let swiftc = Self.swiftc else {
            Issue.record("no swiftc found on PATH")
            return
        }
        var random = SeededGenerator(seed: seed)
        for mode in SwiftTestGenerator.Mode.allCases {
            var generator = SwiftTestGenerator(
                logName: random.hostileName(),
                definitionPath: random.chance(0.5) ? random.hostileName() : nil,
                mode: mode,
                commandLine: "chaintrace gen-tests " + random.hostileName()
            )
            for index in 0..<12 { generator.add(Self.trace(&random, id: UInt64(index)), line: index + 2) }
            let path = TestFiles.directory.appendingPathComponent("generated-\(UUID()).swift").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try generator.source.write(toFile: path, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: swiftc)
            process.arguments = ["-parse", path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "seed \(seed), \(mode): \(output.prefix(800))")
        }
    }
}
