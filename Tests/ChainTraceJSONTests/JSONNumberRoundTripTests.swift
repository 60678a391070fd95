import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// Numbers through the writer and the parser: every finite double — any bit pattern, subnormals, extremes,
/// negative zero — writes as text that reads back to the very same double; every Int64 to the same integer;
/// number text in every JSON form reads as the value it spells; and what JSON cannot hold is never written.
@Suite("JSON numbers round trip")
struct JSONNumberRoundTripTests {
    static func roundTrip(_ value: JSONValue) throws -> JSONValue {
        var writer = JSONWriter()
        writer.write(value)
        return try JSONDocument(bytes: writer.bytes, file: "n.json").root
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func everyFiniteDoubleAndEveryIntegerComesBackExactly(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<500 {
            let double = Double(bitPattern: random.next())
            guard double.isFinite else { continue }
            let back = try Self.roundTrip(.double(double))
            switch back {
            case .double(let read):
                #expect(
                    read.bitPattern == double.bitPattern || (read == 0 && double == 0),
                    "seed \(seed): \(double) read as \(read)"
                )
            case .integer(let read):
                #expect(Double(read) == double, "seed \(seed): \(double) read as the integer \(read)")
            default: Issue.record("seed \(seed): \(double) read as \(back)")
            }
            let integer = Int64(bitPattern: random.next())
            #expect(try Self.roundTrip(.integer(integer)) == .integer(integer), "seed \(seed): \(integer)")
        }
        for special in [
            Double.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            1e-300, 0.1, -0.0,
        ] {
            let back = try Self.roundTrip(.double(special))
            #expect(back.doubleValue == special, "\(special) read as \(back)")
        }
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("1e2", 100), ("1E+2", 100), ("1e-2", 0.01), ("2.5", 2.5), ("-2.50e1", -25),
        ("123456789012345678901234567890", 1.2345678901234568e29), ("0.000001", 0.000001),
    ])
    func numberTextReadsAsTheValueItSpells(text: String, value: Double) throws {
        let read = try JSONDocument(bytes: Array(text.utf8), file: "n.json").root
        #expect(read.doubleValue == value, "\(text) read as \(read)")
    }

    @Test(arguments: ["01", "+1", ".5", "5.", "1e", "1e+", "-", "0x10", "NaN", "Infinity", "1_000"])
    func malformedNumbersAreRefused(text: String) {
        #expect(throws: FormatError.self, "\(text) was accepted") {
            try JSONDocument(bytes: Array(text.utf8), file: "n.json")
        }
    }
}
