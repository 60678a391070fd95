import ChainTrace
import FuzzSupport

@testable import ChainTraceJSON

/// The general JSON parser on any bytes: it either reads a document or reports a position inside the input, and
/// what it reads writes back to bytes that read back to the same value.
@_cdecl("fuzz_json_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzJSON(inputBytes(data, size)) }
}

func fuzzJSON(_ bytes: [UInt8]) -> CInt {
    do {
        let document = try JSONDocument(bytes: bytes, file: "fuzz.json")
        var writer = JSONWriter()
        writer.write(document.root)
        guard let again = try? JSONDocument(bytes: writer.bytes, file: "again.json") else {
            fatalError("what the parser read does not read back: \(String(decoding: writer.bytes, as: UTF8.self))")
        }
        precondition(again.root == document.root, "the round trip changed the value")
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "an error outside the input: \(error)")
        precondition(error.line <= bytes.count + 1, "an error line past the input: \(error)")
    }
    return 0
}
