import ChainTraceJSON

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whole small files (definitions, single commands) read into memory.
package enum FileBytes {
    /// The bytes of the file at `path`.
    package static func read(_ path: String) throws(FormatError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(file: path, expected: "a readable file", code: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { FileDescriptor.read(descriptor, into: $0) }
            if count < 0 { throw .system(file: path, expected: "to read the file", code: errno) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// The size of the file at `path` in bytes, or 0 when it cannot be examined.
    package static func size(of path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// The names in the directory at `path` (not `.` or `..`), or `nil` when `path` is not a directory.
    ///
    /// - Throws: `FormatError` for a directory that cannot be read.
    package static func directoryNames(_ path: String) throws(FormatError) -> [String]? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        guard let directory = opendir(path) else {
            throw .system(file: path, expected: "a readable directory", code: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The paths a shell-style pattern (`*`, `?`, `[…]`) names, in ``FileNameOrder``, for a pattern the shell did not expand
    /// (quoted, or from a script); `nil` when `pattern` has none of those characters or is itself an existing
    /// path — a file may be called `a[1].jsonl`.
    ///
    /// - Throws: `FormatError` when the pattern cannot be read (a directory on its way that cannot be opened).
    package static func globMatches(_ pattern: String) throws(FormatError) -> [String]? {
        guard pattern.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) else { return nil }
        var status = stat()
        if stat(pattern, &status) == 0 { return nil }
        var matches = glob_t()
        defer { globfree(&matches) }
        switch glob(pattern, 0, nil, &matches) {
        case 0:
            var paths: [String] = []
            for index in 0..<Int(matches.gl_pathc) {
                if let path = matches.gl_pathv[index] { paths.append(String(cString: path)) }
            }
            return FileNameOrder.sorted(paths)
        case GLOB_NOMATCH:
            return []
        default:
            throw FormatError(
                file: pattern,
                line: 0,
                column: 0,
                expected: "a pattern whose directories can be read",
                found: "an unreadable directory"
            )
        }
    }
}
