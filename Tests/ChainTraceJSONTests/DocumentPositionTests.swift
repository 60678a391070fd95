import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// `JSONDocument.position(of:)` — what every error about a value's meaning is placed by — on generated documents
/// written with line breaks and indentation: for every value's path, the line and column are where that value's
/// first character is; for a member that is not there, where its object starts.
@Suite("Document positions")
struct DocumentPositionTests {
    /// Every path in `value`, the way positions name them (`a.b[2].c`), with the value there.
    static func paths(_ value: JSONValue, _ path: String = "") -> [(String, JSONValue)] {
        var result = [(path, value)]
        switch value {
        case .object(let members):
            for (key, member) in members where !key.contains(".") && !key.contains("[") {
                result += paths(member, path.isEmpty ? key : "\(path).\(key)")
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { result += paths(element, "\(path)[\(index)]") }
        default:
            break
        }
        return result
    }

    /// The first character a value is written with.
    static func firstCharacter(of value: JSONValue) -> UInt8 {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes[0]
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func everyValueIsWhereItsPositionSays(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let value = JSONValue.object([
            "root": GeneratedJSON.value(&random), "list": .array([GeneratedJSON.value(&random)]),
        ])
        var writer = JSONWriter()
        writer.write(value)
        // Line breaks and indentation after every comma and opening bracket, so lines and columns both vary.
        var bytes: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in writer.bytes {
            bytes.append(byte)
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                bytes += [0x0A] + Array(repeating: UInt8(ascii: " "), count: Int.random(in: 0...4, using: &random))
            }
        }
        let document = try JSONDocument(bytes: bytes, file: "d.json")
        #expect(document.root == value, "seed \(seed)")
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (path, member) in Self.paths(value) {
            let (line, column) = document.position(of: path)
            guard line >= 1, line <= lines.count, column >= 1, column <= lines[line - 1].count else {
                Issue.record("seed \(seed): \(path) at \(line):\(column) is outside the text")
                continue
            }
            #expect(
                Array(lines[line - 1])[column - 1] == Self.firstCharacter(of: member),
                "seed \(seed): \(path) at \(line):\(column)"
            )
        }
        // A member that is not there: the object that would hold it.
        let (line, column) = document.position(of: "root.no-such-member")
        let (rootLine, rootColumn) = document.position(of: "root")
        if case .object = value["root"] { #expect(line == rootLine && column == rootColumn, "seed \(seed)") }
    }
}
