import ChainTrace
import ChainTraceJSON

/// Reads coins from JSON Lines, with the file, line and field of any problem.
enum CoinStream {
    static func read(path: String) throws -> [InsertedCoin] {
        let lines = try JSONLinesReader(path: path)
        var coins: [InsertedCoin] = []
        while let (line, value) = try lines.next() {
            func number(_ key: String) throws -> Double {
                guard let number = value[key]?.doubleValue else {
                    throw FormatError(
                        file: path,
                        line: line,
                        column: 0,
                        expected: "\"\(key)\" to be a number",
                        found: value[key]?.summary ?? "no such field"
                    )
                }
                return number
            }
            let id = value["id"]?.stringValue ?? "coin-\(line)"
            coins.append(InsertedCoin(id: id, diameter: try number("diameter"), weight: try number("weight")))
        }
        return coins
    }
}
