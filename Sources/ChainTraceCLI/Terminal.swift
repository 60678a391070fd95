import ChainTrace
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One of the process's output streams, with what the CLI needs to know about it.
struct Terminal: Sendable {
    let descriptor: Int32

    static let standardOutput = Terminal(descriptor: 1)
    static let standardError = Terminal(descriptor: 2)

    /// Whether a person is watching: the stream is a terminal.
    var isInteractive: Bool { isatty(descriptor) == 1 }

    /// Whether to colour: on a terminal, unless `NO_COLOR` is set (to anything) or `TERM` is `dumb`.
    var usesColor: Bool {
        guard isInteractive, getenv("NO_COLOR") == nil else { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
    }

    /// Writes text for people. Characters that would act on the terminal rather than show — C0 and C1 controls
    /// other than newline and tab, DEL, bidi overrides and isolates — are written as visible escapes (`\u{1B}`),
    /// whoever forgot to pass data through ``TerminalText/shown(_:)``; only ``Style``'s own markers become colour.
    func writeText(_ text: String) {
        writeData(TerminalText.rendered(text))
    }

    /// Writes text exactly as given: JSON, DOT, generated source, the progress bar's carriage returns.
    func writeData(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes bytes as they are (an image, a PDF).
    func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Output the reader has gone from (a closed pipe, when SIGPIPE is ignored) is dropped: the exit status still
    /// tells. Any other failure to write standard output — a full disk, a closed descriptor — is kept for
    /// ``outputFailure``, so that the command does not end as if its output were whole.
    private func write(_ bytes: UnsafeRawBufferPointer) {
        let failure = FileDescriptor.writeAll(descriptor, bytes)
        guard failure != 0, failure != EPIPE, descriptor == Self.standardOutput.descriptor else { return }
        Self.standardOutputFailure.withLock { if $0 == 0 { $0 = failure } }
    }

    /// The first error met writing standard output (an `errno`; 0 for none).
    private static let standardOutputFailure = LockedValue<Int32>(0)

    /// What went wrong writing standard output, if anything did: the output is incomplete.
    static var outputFailure: FormatError? {
        let failure = standardOutputFailure.withLock { $0 }
        return failure == 0 ? nil : .system(file: "standard output", expected: "to write the output", code: failure)
    }
}

/// ANSI styles, applied only when the output takes colour.
///
/// A style is written as a marker (noncharacters U+FDD0 … U+FDD1 around the SGR code) that only
/// ``Terminal/writeText(_:)`` turns into an escape sequence, so no escape sequence in data can pass for one of ours.
struct Style: Sendable {
    let enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\(Self.open)\(code)\(Self.close)\(text)\(Self.open)0\(Self.close)" : text
    }

    /// The markers around a style's code (Swift literals cannot name noncharacters).
    static let open = String(Character(Unicode.Scalar(0xFDD0)!))
    static let close = String(Character(Unicode.Scalar(0xFDD1)!))
}

/// Data shown to people on a terminal, escaped so that it shows and never acts.
enum TerminalText {
    /// `count` and `noun` agreeing: "1 trace", "2 traces" (`noun` singular; the plural adds "s"), "once" and "3
    /// times" for "time".
    static func counted(_ count: Int, _ noun: String) -> String {
        if noun == "time", count == 1 { return "once" }
        return "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `part` of `total` things, the noun agreeing with the total: "1 of 1 command", "2 of 3 commands".
    static func share(_ part: Int, of total: Int, _ noun: String) -> String {
        "\(part) of \(counted(total, noun))"
    }

    /// The verb agreeing with `count`: `agreeing(1, "has", "have")` is "has".
    static func agreeing(_ count: Int, _ singular: String, _ plural: String) -> String {
        count == 1 ? singular : plural
    }

    /// Input paths as a message names them: all of them, comma-separated, when there are a few; the first two and the
    /// last around a count of the rest when there are more (a shell's `logs/*.jsonl` can give hundreds):
    /// `a-0001.jsonl, a-0002.jsonl, … (197 more), a-0200.jsonl`. Shown as ``shown(_:)`` shows text.
    static func paths(_ paths: [String]) -> String {
        shown(FileListText.listed(paths))
    }

    /// Counts by name (commands by chain, say) as a terminal shows them: `'audit': 3, 'metrics': 1`, in name order.
    static func counts(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "'\(shown($0.key))': \($0.value)" }.joined(separator: ", ")
    }

    /// `text` from data (a handler name, an id, an error text) as a terminal line shows it: C0 controls (newline
    /// and tab included, so a name stays on its line), DEL, C1 controls, bidi controls and the noncharacters
    /// ``Style`` uses as markers become `\u{…}` escapes; everything else is kept.
    static func shown(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isActive(scalar) || scalar.value == 0x0A || scalar.value == 0x09 || isMarker(scalar) {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whole output as ``Terminal/writeText(_:)`` writes it: markers become SGR sequences, anything active is
    /// escaped, newlines and tabs stay.
    static func rendered(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar.value == 0xFDD0 {
                var code = ""
                while let next = scalars.next(), next.value != 0xFDD1 { code.unicodeScalars.append(next) }
                if !code.isEmpty, code.allSatisfy(\.isNumber) {
                    out.append(contentsOf: "\u{1B}[\(code)m".unicodeScalars)
                }
            } else if isActive(scalar) || isMarker(scalar) {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// How many terminal columns `text` takes: wide East Asian characters and emoji two, combining marks and
    /// other zero-width characters none, everything else one — so tables line up whatever the names hold.
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    private static func columns(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Characters a terminal acts on instead of showing, newline and tab aside (``VisibleText``'s rule).
    private static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && VisibleText.isActive(scalar)
    }

    private static func isMarker(_ scalar: Unicode.Scalar) -> Bool { (0xFDD0...0xFDEF).contains(scalar.value) }

    private static func escape(_ scalar: Unicode.Scalar) -> String { VisibleText.escape(scalar) }
}
