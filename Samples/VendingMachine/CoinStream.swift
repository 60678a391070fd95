import ChainTrace
import ChainTraceFormats

/// Reads coins from JSON Lines, with the file, line and field of any problem.
enum CoinStream {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func read(path: String) throws -> [InsertedCoin] {
        guard let file = fopen(path, "r") else {
            throw Problem(description: "\(path): cannot open the coin stream")
        }
        defer { fclose(file) }
        var coins: [InsertedCoin] = []
        var lineNumber = 0
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0, let buffer {
            lineNumber += 1
            let line = String(cString: buffer).trimmingNewline()
            if line.allSatisfy(\.isWhitespace) { continue }
            let value: JSONValue
            do {
                value = try JSONParser.parse(line, line: lineNumber)
            } catch {
                throw Problem(description: "\(path):\(error.line):\(error.column): expected \(error.expected), found \(error.found)")
            }
            func number(_ key: String) throws -> Double {
                guard let number = value[key]?.doubleValue else {
                    throw Problem(description: "\(path):\(lineNumber): expected a number in \"\(key)\"")
                }
                return number
            }
            let id = value["id"]?.stringValue ?? "coin-\(lineNumber)"
            coins.append(InsertedCoin(id: id, diameter: try number("diameter"), weight: try number("weight")))
        }
        return coins
    }
}

extension String {
    func trimmingNewline() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
