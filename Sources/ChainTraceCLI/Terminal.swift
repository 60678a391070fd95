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

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes bytes as they are (an image, a PDF).
    func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            #else
            let count = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += count
        }
    }
}

/// ANSI styles, applied only when the output takes colour.
struct Style: Sendable {
    let enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
