import ChainTrace

/// A coin dropped into the machine: what the sensors measured.
struct InsertedCoin: Codable, Sendable, TracedCommand {
    var id: String
    var diameter: Double
    var weight: Double

    var commandKind: String { "InsertedCoin" }
    var commandID: String? { id }
}

/// The coin the machine decided it was.
enum CoinKind: String, Sendable {
    case penny, nickel, dime, quarter

    var cents: Int {
        switch self {
        case .penny: 1
        case .nickel: 5
        case .dime: 10
        case .quarter: 25
        }
    }

    /// Standard diameter (mm) and weight (g).
    var specification: (diameter: Double, weight: Double) {
        switch self {
        case .penny: (19.05, 2.5)
        case .nickel: (21.21, 5.0)
        case .dime: (17.91, 2.268)
        case .quarter: (24.26, 5.67)
        }
    }
}
