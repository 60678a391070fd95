import ChainTrace
import ChainTraceLogging
import ChainTraceTestSupport
import Logging
import Testing

/// Traces whose names hold anything through `LogTraceSink`: one line per trace (or per hop), and no character a
/// terminal would act on — in the message or in any metadata value — yet every name is there, each active
/// character shown as an escape.
@Suite("Log lines of hostile traces")
struct LogTraceSinkPropertyTests {
    static func active(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x00..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
            default: false
            }
        }
    }

    /// How a name should read in a log line, written out here on its own: each active character as `\n`, `\t` or
    /// `\u{HEX}`, everything else as it is.
    static func shown(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                out += "\\n"
            } else if scalar == "\t" {
                out += "\\t"
            } else if active(String(scalar)) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func linesNeverActAndStillNameEverything(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let names = (0..<Int.random(in: 1...4, using: &random)).map { random.hostileName(maximumLength: 6) + "\($0)" }
        let hops = names.enumerated().map { position, name in
            Hop(
                handler: name,
                position: position,
                decision: position == names.count - 1 ? .failed : .passed,
                reason: random.chance(0.5) ? random.hostileName() : nil,
                inclusiveDuration: 10,
                selfDuration: 5
            )
        }
        let error = random.hostileName()
        let trace = Trace(
            id: 1,
            commandKind: random.hostileName(),
            commandID: random.hostileName(),
            entry: names[0],
            chain: random.hostileName(),
            hops: hops,
            outcome: .failed(at: names.last!, error: error),
            duration: 10
        )
        for granularity in [LogTraceSink.Granularity.perTrace, .perHop] {
            let handler = CapturingLogHandler()
            LogTraceSink(logger: Logger(label: "test") { _ in handler }, level: .info, granularity: granularity).record(
                trace
            )
            let entries = handler.entries
            #expect(entries.count == (granularity == .perTrace ? 1 : hops.count), "seed \(seed)")
            for entry in entries {
                #expect(!Self.active(entry.message), "seed \(seed): \(entry.message.debugDescription)")
                for (key, value) in entry.metadata {
                    #expect(!Self.active("\(value)"), "seed \(seed): \(key) = \("\(value)".debugDescription)")
                }
                #expect(
                    entry.metadata["chaintrace.command.id"].map { "\($0)" } == Self.shown(trace.commandID!),
                    "seed \(seed)"
                )
                #expect(entry.metadata["chaintrace.chain"].map { "\($0)" } == Self.shown(trace.chain), "seed \(seed)")
            }
            if granularity == .perHop {
                let logged = entries.compactMap { $0.metadata["chaintrace.handler"].map { "\($0)" } }
                #expect(logged == names.map(Self.shown), "seed \(seed)")
            } else {
                // By scalars: a name starting with a combining mark joins the space before it in one Character.
                let message = Array(entries[0].message.unicodeScalars)
                for name in names {
                    let wanted = Array(Self.shown(name).unicodeScalars)
                    let found = (0...max(0, message.count - wanted.count)).contains {
                        Array(message.dropFirst($0).prefix(wanted.count)) == wanted
                    }
                    #expect(found, "seed \(seed): \(name.debugDescription)")
                }
            }
        }
    }
}
