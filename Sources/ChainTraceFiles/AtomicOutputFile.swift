import CChainTraceSupport
import CZlib
import ChainTraceFastPath
import ChainTraceJSON

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An output file that appears whole or not at all: written under a temporary name beside it, then renamed
/// over `path` by ``commit()``. A run that fails calls ``discard()`` (or just ends), and `path` is untouched.
///
/// What `path` already is decides how it is published:
/// - nothing, or a regular file: the temporary file is renamed over it;
/// - a symbolic link to a regular file (`latest.html`), or to nothing yet: over (or as) the file it leads to, so
///   that the link stays a link;
/// - one of the process's own descriptors — `/dev/stdout`, `/dev/stderr`, `/dev/stdin`, `/dev/fd/N`,
///   `/proc/self/fd/N` — whatever it is open on: the finished content is written into that descriptor, as the
///   shell set it up (one that is closed, or open only for reading, is an error). So standard output redirected
///   with `>>` keeps what the file held and gets the output after it, and with `>` the file stays the file the
///   shell opened. (Renamed over through the link, a `>>` file lost its earlier content.)
/// - anything else — a pipe, a terminal, a device such as `/dev/null`: it is opened and the finished content
///   written into it.
///
/// In the last two cases the temporary file is made in the temporary directory, and the target is not written
/// at all unless the run gets as far as ``commit()``. (Renamed over, such a path — `/dev/stdout` itself — would
/// have been replaced by a regular file, for a process allowed to write in `/dev`.)
///
/// The temporary file is also noted for deletion if a signal ends the process (Ctrl-C, `kill`, a closed pipe)
/// before it is committed — in a program that asked for that with `chaintrace_remove_files_on_termination`, as
/// the `chaintrace` command does. Without it, an interrupted run left a hidden `.name.partial-…` file of
/// whatever it had written so far.
///
/// ```swift
/// let output = try AtomicOutputFile(path: "traces.jsonl")
/// let sink = try TraceLogSink(path: output.temporaryPath)
/// … run …
/// try sink.close()
/// try output.commit()
/// ```
package final class AtomicOutputFile: Sendable {
    /// Where the file will be once committed.
    package let path: String
    /// Where it is written until then.
    package let temporaryPath: String
    /// The temporary file, open for ``append(_:)``; -1 once closed.
    private let descriptor: LockedValue<Int32>
    /// The temporary file's note for deletion on a signal (`chaintrace_note_removal`); -1 once forgotten.
    private let removalNote: LockedValue<Int32>
    /// Whether ``commit()`` publishes the file gzip-compressed.
    package let compressed: Bool
    /// How ``commit()`` publishes the file.
    private let publishing: Publishing

    /// How the finished file reaches `path`.
    private enum Publishing {
        /// Renamed over this path: `path`, or the regular file a link at `path` leads to.
        case rename(to: String)
        /// Written into what is at `path` (a pipe, a terminal, a device), opened at commit.
        case stream
        /// Written into this descriptor of the process, which `path` names (`/dev/stdout` is 1).
        case descriptor(Int32)

        /// Where a file renamed into place goes; `nil` for one written into its target.
        var destination: String? {
            guard case .rename(let destination) = self else { return nil }
            return destination
        }
    }

    /// Reserves a temporary file beside `path` (beside the file a link there leads to; in the temporary directory
    /// when `path` is no plain file: see the type's description).
    ///
    /// The file is created with mode 0666 less the process's umask — the permissions any newly created file gets —
    /// by `open` itself, so nothing reads or changes the umask (which is process-wide: changing it races with
    /// every other thread creating files).
    ///
    /// - Throws: ``FormatError`` when the directory is not writable. (Whether `path` may be written at all — no
    /// directory, none of the command's inputs — is ``checkTarget(_:inputs:)``'s, before any work.)
    ///
    /// - Parameters:
    ///   - path: Where the file will be once committed.
    ///   - compressed: Publish the file gzip-compressed: what is written goes to the temporary file as it is, and
    ///     ``commit()`` compresses it into place.
    ///   - temporaryDirectory: Where the temporary file of an output that is no plain file goes (with a trailing
    ///     slash); ``temporaryDirectory`` when `nil`.
    package init(path: String, compressed: Bool = false, temporaryDirectory: String? = nil) throws(FormatError) {
        self.path = path
        self.compressed = compressed
        let publishing = try Self.publishing(path)
        self.publishing = publishing
        // Beside where it is renamed to (a rename does not cross file systems), or in the temporary directory.
        let besidePath =
            publishing.destination ?? ((temporaryDirectory ?? Self.temporaryDirectory) + "chaintrace-output")
        let slash = besidePath.lastIndex(of: "/")
        let directory = slash.map { String(besidePath[...$0]) } ?? ""
        let name = slash.map { String(besidePath[besidePath.index(after: $0)...]) } ?? besidePath
        var generator = SystemRandomNumberGenerator()
        var descriptor: Int32 = -1
        var candidate = ""
        var note: Int32 = -1
        for _ in 0..<100 {
            let suffix = String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 36)
            candidate = "\(directory).\(name).partial-\(suffix)"
            // Noted for deletion before it exists: a signal between creating the file and noting it left the file
            // behind. Before the file exists, a signal deletes nothing (the name is 64 random bits: no other file
            // has it but by a chance of 2⁻⁶⁴).
            note = chaintrace_note_removal(candidate)
            // O_APPEND: every append lands at the end, also after `write` has cut the file back.
            descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_APPEND, 0o666)
            if descriptor >= 0 { break }
            let failure = errno
            chaintrace_forget_removal(note)
            note = -1
            errno = failure
            if failure != EEXIST { break }
        }
        guard descriptor >= 0 else {
            if publishing.destination == nil {
                throw .system(
                    file: path,
                    expected:
                        "a writable temporary directory to finish the output in (\(directory.dropLast()), set by TMPDIR)",
                    code: errno
                )
            }
            throw .system(file: path, expected: "a writable directory", code: errno)
        }
        self.descriptor = LockedValue(descriptor)
        temporaryPath = candidate
        removalNote = LockedValue(note)
    }

    /// `$TMPDIR`, else `/tmp`, with a trailing slash.
    package static var temporaryDirectory: String {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return directory.hasSuffix("/") ? directory : directory + "/"
    }

    /// How a file finished for `path` gets there, from what `path` is now (see the type's description).
    ///
    /// - Throws: ``FormatError`` when `path` names a descriptor of the process that is closed or open only for
    ///   reading.
    private static func publishing(_ path: String) throws(FormatError) -> Publishing {
        if let descriptor = ownDescriptor(path) {
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0 else {
                // Closed (`>&-`): nothing to write into, and no file to make in its place.
                throw FormatError(
                    file: path,
                    line: 0,
                    column: 0,
                    expected: "descriptor \(descriptor) open for writing",
                    found: "it closed"
                )
            }
            guard flags & O_ACCMODE != O_RDONLY else {
                throw FormatError(
                    file: path,
                    line: 0,
                    column: 0,
                    expected: "descriptor \(descriptor) open for writing",
                    found: "it open only for reading"
                )
            }
            return .descriptor(descriptor)
        }
        var target = stat()
        guard stat(path, &target) == 0 else {
            // Nothing there: a new file, created by the rename. A link to nothing is followed, so that the link
            // itself is never replaced.
            return .rename(to: linkTarget(path) ?? path)
        }
        let kind = target.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFDIR else { return .stream }
        var link = stat()
        guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return .rename(to: path) }
        // Written into, a regular file would keep whatever of its old content lies past the new: renamed over,
        // always, through the link as far as it can be followed.
        guard let resolved = realpath(path, nil) else { return .rename(to: linkTarget(path) ?? path) }
        defer { free(resolved) }
        return .rename(to: String(cString: resolved))
    }

    /// The descriptor of this process that `path` names — `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
    /// `/proc/self/fd/N`, spelt so — open or not; `nil` for any other path.
    package static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            let digits = path.utf8.dropFirst(prefix.utf8.count)
            guard !digits.isEmpty, digits.count <= 9,
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return nil }
            return Int32(String(decoding: digits, as: UTF8.self))
        }
        return nil
    }

    /// Where the symbolic link at `path` leads, relative to its directory when the link is relative; `nil` when
    /// `path` is no link.
    private static func linkTarget(_ path: String) -> String? {
        var link = stat()
        guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("/") { return target }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        return directory + target
    }

    deinit {
        descriptor.withLock { if $0 >= 0 { close($0) } }
        unlink(temporaryPath)
        forgetRemoval()
    }

    /// Checks, before any work, that `path` can be an output of a command that reads `inputs`: it is no
    /// directory, and no input under any name (the same path, another spelling, a link): the finished output would
    /// replace a file the command reads — a command stream or a recorded log, perhaps the only copy.
    ///
    /// - Throws: ``FormatError`` naming `path` and what it is.
    package static func checkTarget(_ path: String, inputs: [String]) throws(FormatError) {
        var target = stat()
        // Nothing there yet: a new file, which no input can be.
        guard stat(path, &target) == 0 else { return }
        if target.st_mode & S_IFMT == S_IFDIR {
            throw FormatError(file: path, line: 0, column: 0, expected: "a file to write", found: "a directory")
        }
        for input in inputs {
            var read = stat()
            if stat(input, &read) == 0, read.st_dev == target.st_dev, read.st_ino == target.st_ino {
                throw FormatError(
                    file: path,
                    line: 0,
                    column: 0,
                    expected: "an output file that is not one of the command's inputs",
                    found: input == path ? "an input" : "the input \(input)"
                )
            }
        }
    }

    /// Stops the temporary file being deleted on a signal: it is renamed away or deleted already. Once only, since
    /// a forgotten note may be taken by another file.
    private func forgetRemoval() {
        removalNote.withLock { note in
            chaintrace_forget_removal(note)
            note = -1
        }
    }

    /// Adds `bytes` at the end of the file, for output written as it is produced.
    package func append(_ bytes: [UInt8]) throws(FormatError) {
        let failure = descriptor.withLock { FileDescriptor.writeAll($0, bytes) }
        if failure != 0 { throw .system(file: path, expected: "to write the file", code: failure) }
    }

    /// Writes `bytes` as the whole file's content (to the temporary file; ``commit()`` publishes it).
    package func write(_ bytes: [UInt8]) throws(FormatError) {
        // Through the same descriptor as `append`: cut back to nothing, then append. (A second descriptor kept its
        // own offset, so appends after a write landed at the old end, over a hole.)
        let failure = descriptor.withLock { descriptor -> Int32 in ftruncate(descriptor, 0) == 0 ? 0 : errno }
        if failure != 0 { throw .system(file: path, expected: "to write the file", code: failure) }
        try append(bytes)
    }

    /// Renames the finished file over `path`; it keeps the permissions it was created with (0666 less the umask).
    package func commit() throws(FormatError) {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
        guard let destination = publishing.destination else {
            try writeIntoTarget()
            unlink(temporaryPath)
            forgetRemoval()
            return
        }
        if compressed {
            // Compressed into a second temporary file, itself published whole; this one is then deleted.
            let archive = try AtomicOutputFile(path: path)
            try archive.compress(temporaryPath)
            try archive.commit()
            unlink(temporaryPath)
            forgetRemoval()
            return
        }
        guard rename(temporaryPath, destination) == 0 else {
            throw .system(file: path, expected: "to move the finished file into place", code: errno)
        }
        // After the rename: a signal between the two deletes a name that is gone, where one before it would have
        // left the finished file under its temporary name.
        forgetRemoval()
    }

    /// Writes the finished temporary file into what `path` names: the process's own descriptor, written where it
    /// stands and left open, or a pipe, a terminal or a device, opened here.
    private func writeIntoTarget() throws(FormatError) {
        if case .descriptor(let target) = publishing { return try stream(into: target) }
        let target = open(path, O_WRONLY | O_CLOEXEC)
        guard target >= 0 else { throw .system(file: path, expected: "a writable file", code: errno) }
        defer { close(target) }
        try stream(into: target)
    }

    /// Writes the finished temporary file into `target`, compressed when asked, a megabyte at a time.
    private func stream(into target: Int32) throws(FormatError) {
        if compressed { return try Self.compress(temporaryPath, into: target, naming: path) }
        let input = open(temporaryPath, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .system(file: path, expected: "to read back the finished file", code: errno) }
        defer { close(input) }
        let readFailure = try FileDescriptor.readChunks(input) { chunk throws(FormatError) in
            let failure = chunk.withUnsafeBytes { FileDescriptor.writeAll(target, $0) }
            if failure != 0 { throw .system(file: path, expected: "to write the file", code: failure) }
        }
        if readFailure != 0 { throw .system(file: path, expected: "to read back the finished file", code: readFailure) }
    }

    /// Writes the file at `source` into this one's temporary file, gzip-compressed (zlib's default level), as it
    /// streams: a megabyte at a time.
    private func compress(_ source: String) throws(FormatError) {
        try descriptor.withLock { descriptor throws(FormatError) in
            try Self.compress(source, into: descriptor, naming: path)
        }
    }

    /// Writes the file at `source` into `descriptor` (left open), gzip-compressed, a megabyte at a time; errors
    /// name `path`.
    private static func compress(_ source: String, into descriptor: Int32, naming path: String) throws(FormatError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw .system(file: path, expected: "to read back the file to compress it", code: errno)
        }
        defer { close(input) }
        let failure = { () -> (code: Int32, message: String?) in
            // zlib closes the descriptor it is given; the file's own stays open for `commit`.
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { return (errno, nil) }
            guard let archive = gzdopen(copy, "wb") else {
                close(copy)
                return (ENOMEM, nil)
            }
            var failure: (code: Int32, message: String?) = (0, nil)
            do throws(ArchiveFailure) {
                let readFailure = try FileDescriptor.readChunks(input) { chunk throws(ArchiveFailure) in
                    errno = 0
                    let written = chunk.withUnsafeBytes { gzwrite(archive, $0.baseAddress, UInt32($0.count)) }
                    if written != Int32(chunk.count) { throw ArchiveFailure(reason: Self.failure(of: archive)) }
                }
                failure = (readFailure, nil)
            } catch {
                failure = error.reason
            }
            errno = 0
            let closed = gzclose_w(archive)
            if failure.code == 0, closed != Z_OK {
                failure = (errno != 0 ? errno : EIO, closed == Z_ERRNO ? nil : "zlib error \(closed)")
            }
            return failure
        }()
        guard failure.code == 0 else {
            if let message = failure.message {
                throw FormatError(
                    file: path,
                    line: 0,
                    column: 0,
                    expected: "to write the file compressed",
                    found: message
                )
            }
            throw .system(file: path, expected: "to write the file", code: failure.code)
        }
    }

    /// A write to a gzip archive that failed, and why (see ``failure(of:)``).
    private struct ArchiveFailure: Error {
        var reason: (code: Int32, message: String?)
    }

    /// Why a write to `archive` failed: the system's error, or zlib's own message.
    private static func failure(of archive: gzFile) -> (code: Int32, message: String?) {
        var number: Int32 = 0
        let text = gzerror(archive, &number)
        if number == Z_ERRNO { return (errno != 0 ? errno : EIO, nil) }
        return (EIO, text.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) })
    }

    /// `error` as the user should read it: an error in the temporary file, which they never named, is one in
    /// `path`.
    package func naming(_ error: FormatError) -> FormatError {
        guard error.file == temporaryPath else { return error }
        var error = error
        error.file = path
        return error
    }

    /// Deletes the temporary file; `path` stays as it was.
    package func discard() {
        unlink(temporaryPath)
        forgetRemoval()
    }
}
