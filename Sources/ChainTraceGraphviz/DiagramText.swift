import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON

/// Numbers, times and colours as the diagrams write them.
enum DiagramText {
    static func nanoseconds(_ value: Double) -> String { DurationText.format(nanoseconds: Int64(saturating: value)) }

    static func nanoseconds<Value: BinaryInteger>(_ value: Value) -> String {
        DurationText.format(nanoseconds: Int64(clamping: value))
    }

    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return
            (value >= 10 || value == 0 ? String(Int(saturating: value)) : DOTText.number((value * 10).rounded() / 10))
            + "%"
    }

    static func plural(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// A colour between `from` and `to` (RGB) at `fraction` (0–1), as `#rrggbb`.
    static func blend(_ from: (Int, Int, Int), _ to: (Int, Int, Int), _ fraction: Double) -> String {
        let t = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let pairs: [(Int, Int)] = [(from.0, to.0), (from.1, to.1), (from.2, to.2)]
        let parts: [Int] = pairs.map { pair in
            let start = Double(pair.0)
            return Int((start + (Double(pair.1) - start) * t).rounded())
        }
        return "#"
            + parts.map { (part: Int) -> String in
                let hex = String(part, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
    }

    /// A chain's name for a title: "(unnamed chain)" for the empty name, which `traceHop` records when it is given
    /// no `chain`.
    static func chainName(_ name: String) -> String {
        HandlerNameText.chain(name)
    }

    /// A node label: the name in bold after `mark` (markup, such as "⚠ "), then smaller lines.
    static func label(name: String, mark: String = "", lines: [String]) -> DOTValue {
        let title = "<b>\(mark)\(DOTText.htmlName(name))</b>"
        let rest = lines.map { "<br/><font point-size=\"9\">\($0)</font>" }.joined()
        return .html(title + rest)
    }
}
