/// Escaping of user text for DOT files and the SVG Graphviz draws from them.
///
/// Handler names can hold anything: quotes, backslashes, newlines, `<script>`, entities, control characters.
/// Control characters (which XML forbids) become U+FFFD; newlines become line breaks; everything else is kept
/// and escaped for its place.
public enum DOTText {
    /// `text` as a DOT quoted string: `"` and `\` escaped, newlines as `\n` line breaks, and `&` as `&amp;`
    /// (Graphviz reads entities in strings, so a name holding `&lt;` would otherwise show as `<`).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in cleaned(text).unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "&": out += "&amp;"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `text` for inside an HTML-like label: `& < > " '` as entities, newlines as `<br/>`.
    public static func html(_ text: String) -> String {
        var out = ""
        for scalar in cleaned(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n": out += "<br/>"
            // Graphviz reads `[` and `]` in HTML labels fine, but an unpaired `]]>` would be odd in SVG; keep as is.
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A number with at most three decimals and no trailing zeros: `1`, `0.25`, `12.5`.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (value * 1000).rounded() / 1000
        if scaled == scaled.rounded(), abs(scaled) < 1e15 { return String(Int64(scaled)) }
        return String(scaled)
    }

    /// Normalises line ends to `\n` and replaces other control characters with U+FFFD.
    static func cleaned(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasReturn = scalar == "\r" }
            switch scalar.value {
            case 0x0A: if !previousWasReturn { out.append("\n") }
            case 0x0D: out.append("\n")
            case 0x09: out.append(" ")
            case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0xFFFE, 0xFFFF: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
