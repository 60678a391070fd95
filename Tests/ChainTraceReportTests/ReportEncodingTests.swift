import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

@testable import ChainTraceReport

/// What the page's safety rests on: the CSP hashes (SHA-256, base 64) against the system's `sha256sum` and
/// Foundation, and the data block — JSON that no string can end early — read back to the same value.
@Suite("Report encoding")
struct ReportEncodingTests {
    /// `sha256sum` of `bytes`, as hex.
    static func systemDigest(_ bytes: [UInt8]) throws -> String {
        let file = TestFiles.directory.appendingPathComponent("sha-\(UUID()).bin")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    @Test func knownDigests() {
        func hex(_ text: String) -> String {
            SHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
    }

    /// Lengths around every padding boundary, and larger random inputs, against `sha256sum` and Foundation's
    /// base 64.
    @Test(arguments: SeededGenerator.seeds(6))
    func digestsAgreeWithTheSystem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var lengths =
            Array(0...3).map { _ in Int.random(in: 0...130, using: &random) } + [55, 56, 63, 64, 65, 119, 120]
        lengths.append(Int.random(in: 1_000...70_000, using: &random))
        for length in lengths {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let digest = SHA256.digest(bytes)
            #expect(
                digest.map { String(format: "%02x", $0) }.joined() == (try Self.systemDigest(bytes)),
                "seed \(seed), length \(length)"
            )
            #expect(SHA256.base64Digest(bytes) == Data(digest).base64EncodedString(), "seed \(seed), length \(length)")
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString(), "seed \(seed), length \(length)")
        }
    }

    static func value(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0...(depth > 3 ? 3 : 5), using: &random) {
        case 0:
            return .string(
                random.hostileName() + random.pick(["</script>", "<!--", "]]>", "\u{2028}", "\u{2029}", "&amp;", ""])
            )
        case 1: return .integer(Int64.random(in: .min ... .max, using: &random))
        case 2: return .bool(random.chance(0.5))
        case 3: return .null
        case 4: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                members[random.hostileName() + "</script>"] = value(&random, depth: depth + 1)
            }
            return .object(members)
        }
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func dataBlockCannotEndEarlyAndReadsBack(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let value = Self.value(&random)
        let text = HTMLText.scriptSafeJSON(value)
        for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            #expect(!text.contains(forbidden), "seed \(seed): \(forbidden.debugDescription) written raw")
        }
        #expect(try JSONParser.parse(text) == value, "seed \(seed): did not read back")
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func escapedTextHasNoMarkup(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let text = random.hostileName(maximumLength: 30) + "<b a=\"1\" b='2'>&"
        let escaped = HTMLText.escaped(text)
        #expect(
            !escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"") && !escaped.contains("'"),
            "seed \(seed)"
        )
        // Decoded byte by byte: `String` would compare an entity followed by a combining mark as another character.
        var back: [UInt8] = []
        var bytes = Array(escaped.utf8)[...]
        let entities: [(String, UInt8)] = [
            ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&#39;", 0x27), ("&amp;", 0x26),
        ]
        while let byte = bytes.first {
            if let (entity, plain) = entities.first(where: { bytes.starts(with: $0.0.utf8) }) {
                back.append(plain)
                bytes = bytes.dropFirst(entity.utf8.count)
            } else {
                back.append(byte)
                bytes = bytes.dropFirst()
            }
        }
        #expect(back == Array(text.utf8), "seed \(seed)")
    }
}
