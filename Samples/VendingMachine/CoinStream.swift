import ChainTrace
import ChainTraceDefinitions
import ChainTraceReplay

/// Reads coins from JSON Lines, with the file, line and field of any problem.
enum CoinStream {
    static func read(path: String) throws -> [InsertedCoin] {
        let stream = try CommandStreamReader(path: path)
        var coins: [InsertedCoin] = []
        while let (line, item) = try stream.next() {
            guard case .command(let command) = item else { continue }
            let fields = command.fields
            func number(_ key: String) throws -> Double {
                guard let number = fields[key]?.doubleValue else {
                    throw FormatError(
                        file: path,
                        line: line,
                        column: 0,
                        expected: "\"\(key)\" to be a number",
                        found: fields[key]?.summary ?? "no such field"
                    )
                }
                return number
            }
            coins.append(
                InsertedCoin(
                    id: command.id ?? "coin-\(line)",
                    diameter: try number("diameter"),
                    weight: try number("weight")
                )
            )
        }
        return coins
    }
}
