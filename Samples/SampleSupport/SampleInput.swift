import Foundation

/// Reads a sample's JSON-Lines input into its own types, with the file and line of any bad line.
public enum SampleInput {
    /// Every non-blank line of `path` decoded as `Value`.
    ///
    /// - Throws: ``SampleUsageError`` naming the file and line when one cannot be read.
    public static func lines<Value: Decodable>(of path: String, as type: Value.Type) throws -> [Value] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SampleUsageError("\(path): cannot read the file")
        }
        var values: [Value] = []
        for (number, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { continue }
            do {
                values.append(try JSONDecoder().decode(Value.self, from: Data(line)))
            } catch let DecodingError.keyNotFound(key, _) {
                throw SampleUsageError(
                    "\(path):\(number + 1): expected \"\(key.stringValue)\", found a line without it"
                )
            } catch let DecodingError.typeMismatch(expected, context) {
                let field = context.codingPath.map(\.stringValue).joined(separator: ".")
                throw SampleUsageError(
                    "\(path):\(number + 1): expected \"\(field)\" to be \(expected), found another kind of value"
                )
            } catch {
                throw SampleUsageError(
                    "\(path):\(number + 1): expected a JSON object, found \(String(decoding: line.prefix(40), as: UTF8.self))"
                )
            }
        }
        return values
    }
}

/// A sample's bad argument or input, said plainly.
public struct SampleUsageError: Error, CustomStringConvertible {
    /// The message, naming the file and line when there is one.
    public var description: String

    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
