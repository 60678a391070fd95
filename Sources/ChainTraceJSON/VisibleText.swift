/// Text from data (a handler name, an id, an error) made safe to show to a person: every character that acts
/// instead of showing — C0 controls, DEL, C1 controls, bidi controls, the byte-order mark — becomes a visible
/// `\u{…}` escape, so a name can neither move the cursor, recolour a terminal nor reorder what a reader sees.
/// Newline and tab become `\n` and `\t`, keeping one name on one line. Used wherever ChainTrace writes text for
/// people: the CLI's tables, log lines, comments in generated Swift.
package enum VisibleText {
    /// Whether `scalar` acts on a display rather than showing.
    package static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }

    /// `scalar` as an escape: `\n`, `\t`, or `\u{1B}`.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\t": "\\t"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// `text` with every active character escaped; everything else kept.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isActive) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isActive(scalar) { out.append(contentsOf: escape(scalar).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }
}
