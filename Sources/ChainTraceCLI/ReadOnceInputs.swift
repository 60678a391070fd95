import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

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
/// Each copy is an ``AtomicOutputFile`` in the temporary directory that is never committed: it is deleted when
/// this is released, and on a signal that ends the run. Messages name the files the user gave, never the copies.
final class ReadOnceInputs {
    /// The files to read: the given ones, each that can be read only once replaced by its copy.
    let paths: [String]
    /// Each copy and the file it copies.
    private let copies: [(copy: AtomicOutputFile, original: String)]

    /// Copies each of `files` that is not a regular file (a FIFO, a socket, a character device).
    init(_ files: [String]) throws(FormatError) {
        var paths: [String] = []
        var copies: [(copy: AtomicOutputFile, original: String)] = []
        for file in files {
            guard Self.canBeReadOnlyOnce(file) else {
                paths.append(file)
                continue
            }
            let copy = try Self.copy(file)
            copies.append((copy, file))
            paths.append(copy.temporaryPath)
        }
        self.paths = paths
        self.copies = copies
    }

    /// `text` with every copy's path replaced by the file it copies.
    func shown(_ text: String) -> String {
        copies.reduce(text) { text, copy in text.replacing(copy.copy.temporaryPath, with: copy.original) }
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

    /// Everything `path` holds, copied into a new temporary file (`$TMPDIR`, else `/tmp`) a megabyte at a time.
    private static func copy(_ path: String) throws(FormatError) -> AtomicOutputFile {
        let directory = AtomicOutputFile.temporaryDirectory
        // A name no one can have made beforehand: what is at the name (a link, a pipe) decides where the copy goes.
        let name = "chaintrace-input-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let copy = try AtomicOutputFile(path: directory + name)
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .system(file: path, expected: "a readable file", code: errno) }
        defer { close(input) }
        let readFailure = try FileDescriptor.readChunks(input) { chunk throws(FormatError) in
            do throws(FormatError) { try copy.append(Array(chunk)) } catch {
                throw FormatError(
                    file: path,
                    line: 0,
                    column: 0,
                    expected: "to keep a copy of it in \(directory.dropLast()) (it can be read only once)",
                    found: error.found
                )
            }
        }
        if readFailure != 0 { throw .system(file: path, expected: "to read it", code: readFailure) }
        return copy
    }
}
