import ChainTrace
import Foundation

/// Per-handler counts and self times of a set of traces, as a small text table (the sample's own report; the
/// `chaintrace stats` command will do this properly for any trace log).
struct HandlerSummary {
    struct Line {
        var handler: String
        var seen = 0
        var decisions: [Decision: Int] = [:]
        var selfTimes: [UInt64] = []
    }

    var lines: [Line] = []

    init(traces: [Trace]) {
        var index: [String: Int] = [:]
        for trace in traces {
            for hop in trace.hops {
                let position =
                    index[hop.handler]
                    ?? {
                        lines.append(Line(handler: hop.handler))
                        index[hop.handler] = lines.count - 1
                        return lines.count - 1
                    }()
                lines[position].seen += 1
                lines[position].decisions[hop.decision, default: 0] += 1
                lines[position].selfTimes.append(hop.selfDuration)
            }
        }
    }

    var table: String {
        func column(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        var rows = ["handler               seen  accepted  passed  continued  median self µs"]
        for line in lines {
            let sorted = line.selfTimes.sorted()
            let median = sorted.isEmpty ? 0 : Double(sorted[sorted.count / 2]) / 1000
            let microseconds = (median * 10).rounded() / 10
            rows.append(
                line.handler.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + column("\(line.seen)", 6) + column("\(line.decisions[.accepted] ?? 0)", 10)
                    + column("\(line.decisions[.passed] ?? 0)", 8) + column("\(line.decisions[.continued] ?? 0)", 11)
                    + column("\(microseconds)", 16)
            )
        }
        return rows.joined(separator: "\n")
    }
}
