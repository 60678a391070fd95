import ChainTrace

/// Escaping of user text for DOT files and the SVG Graphviz draws from them.
///
/// Handler names can hold anything: quotes, backslashes, newlines, `<script>`, entities, brackets, control
/// characters. Every string from data that reaches a DOT file goes through ``quoted(_:)`` or ``html(_:)``; both
/// first apply ``displayed(_:)``, so a name reads the same in every label and tooltip:
/// C0 controls and DEL show as their Unicode control pictures (`␛` for ESC), C1 controls, bidi overrides and
/// other invisible format characters as U+FFFD, line ends as line breaks, tabs as spaces; everything else is kept.
public enum DOTText {
    /// `text` as a DOT quoted string: `"` and `\` escaped, newlines as `\n` line breaks, and `&` as `&amp;`
    /// (Graphviz reads entities in strings, so a name holding `&lt;` would otherwise show as `<`).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in displayed(text).unicodeScalars {
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

    /// The entity markup (HTML, SVG, Graphviz's HTML-like labels) needs for `scalar` in text or an attribute value:
    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`; `nil` for any other scalar.
    package static func markupEntity(of scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": "&#39;"
        default: nil
        }
    }

    /// `text` for inside an HTML-like label: `& < > " '` as entities, newlines as `<br/>`.
    public static func html(_ text: String) -> String {
        var out = ""
        for scalar in displayed(text).unicodeScalars {
            if let entity = markupEntity(of: scalar) {
                out += entity
                continue
            }
            switch scalar {
            // Graphviz's HTML-label lexer stops at a bare `]` ("syntax error … in label"), so brackets are entities.
            case "[": out += "&#91;"
            case "]": out += "&#93;"
            case "\n": out += "<br/>"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A name (a handler's, a registry's) for inside an HTML-like label, as ``html(_:)`` — or, for a name that
    /// shows as nothing, *(empty name)* in italics: Graphviz rejects an empty `<b></b>` as a syntax error, and a
    /// blank box would say nothing.
    public static func htmlName(_ name: String) -> String {
        let text = html(name)
        return text.isEmpty ? emptyName : text
    }

    /// What ``htmlName(_:)`` shows for a name that shows as nothing.
    public static let emptyName = "<i>\(HandlerNameText.of(""))</i>"

    /// A number with at most three decimals and no trailing zeros: `1`, `0.25`, `12.5`.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (value * 1000).rounded() / 1000
        if scaled == scaled.rounded(), abs(scaled) < 1e15 { return String(Int64(scaled)) }
        return String(scaled)
    }

    /// `text` as a diagram shows it: line ends normalised to `\n`, tabs as spaces, C0 controls and DEL as their
    /// control pictures (U+2400–U+2421), C1 controls, bidi controls, noncharacters and other invisible format
    /// characters as U+FFFD.
    public static func displayed(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasReturn = scalar == "\r" }
            switch scalar.value {
            case 0x0A: if !previousWasReturn { out.append("\n") }
            case 0x0D: out.append("\n")
            case 0x09: out.append(" ")
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80..<0xA0, 0xFFFE, 0xFFFF, 0xFDD0...0xFDEF: out.append("\u{FFFD}")
            case 0x061C, 0x200B, 0x200E, 0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF, 0xFFF9...0xFFFB:
                out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
