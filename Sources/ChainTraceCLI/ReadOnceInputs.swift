import CChainTraceSupport
import ChainTrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a log that a command reads twice, with each one that can be read only once — a pipe, standard
/// input (`-`), a process substitution — copied into a temporary file first, so that the second reading finds
/// what the first did instead of an empty pipe. Regular files are read where they are.
///
/// The copies are deleted when this is released, and on a signal that ends the run (they are noted for
/// removal as unfinished output files are). Messages name the files the user gave, never the copies.
final class ReadOnceInputs {
    /// The files to read: the given ones, each that can be read only once replaced by its copy.
    let paths: [String]
    /// Each copy's path, the file it copies, and its note for deletion on a signal.
    private let copies: [(copy: String, original: String, note: Int32)]

    /// Copies each of `files` that is not a regular file (a FIFO, a socket, a character device).
    init(_ files: [String]) throws(FormatError) {
        var paths: [String] = []
        var copies: [(copy: String, original: String, note: Int32)] = []
        for file in files {
            guard Self.canBeReadOnlyOnce(file) else {
                paths.append(file)
                continue
            }
            do {
                let (copy, note) = try Self.copy(file)
                copies.append((copy, file, note))
                paths.append(copy)
            } catch {
                Self.remove(copies)
                throw error
            }
        }
        self.paths = paths
        self.copies = copies
    }

    deinit {
        Self.remove(copies)
    }

    /// Deletes `copies` and forgets their notes for deletion on a signal.
    private static func remove(_ copies: [(copy: String, original: String, note: Int32)]) {
        for copy in copies {
            unlink(copy.copy)
            chaintrace_forget_removal(copy.note)
        }
    }

    /// `text` with every copy's path replaced by the file it copies.
    func shown(_ text: String) -> String {
        copies.reduce(text) { text, copy in text.replacing(copy.copy, with: copy.original) }
    }

    /// `error`, naming the file the user gave where it names a copy.
    func shown(_ error: FormatError) -> FormatError {
        var shown = error
        shown.file = self.shown(error.file)
        return shown
    }

    /// Whether `path` is something other than a regular file or a directory: reading it consumes it. A path that
    /// cannot be examined is left to the reader, which names the problem.
    static func canBeReadOnlyOnce(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Copies everything `path` holds into a new temporary file; its path and its removal note.
    private static func copy(_ path: String) throws(FormatError) -> (String, Int32) {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
            + Array("chaintrace-input-XXXXXX".utf8CString)
        let output = mkstemp(&template)
        guard output >= 0 else { throw .system(file: directory, expected: "a writable directory for a copy of \(path)", code: errno) }
        let copy = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let note = chaintrace_note_removal(copy)
        func fail(_ error: FormatError) -> FormatError {
            close(output)
            unlink(copy)
            chaintrace_forget_removal(note)
            return error
        }
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw fail(.system(file: path, expected: "a readable file", code: errno)) }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw fail(.system(file: path, expected: "to read it", code: errno))
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw fail(.system(file: copy, expected: "to keep a copy of \(path), which can be read only once", code: errno))
                }
                written += result
            }
        }
        guard close(output) == 0 else {
            let code = errno
            unlink(copy)
            chaintrace_forget_removal(note)
            throw .system(file: copy, expected: "to keep a copy of \(path), which can be read only once", code: code)
        }
        return (copy, note)
    }
}
