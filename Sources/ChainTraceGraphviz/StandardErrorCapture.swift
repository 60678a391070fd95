#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Points the process's standard error at a scratch file until ``finish()``, which restores it and returns what
/// was written — for the Graphviz warnings that bypass cgraph's error hook and go straight to file descriptor 2.
///
/// Anything another thread writes to standard error meanwhile is caught too; the renderer's calls are short.
struct StandardErrorCapture {
    private let saved: Int32
    private let scratch: UnsafeMutablePointer<FILE>?

    init() {
        fflush(nil)
        scratch = tmpfile()
        saved = scratch == nil ? -1 : fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
        if let scratch, saved >= 0 { dup2(fileno(scratch), STDERR_FILENO) }
    }

    /// Restores standard error and returns what was written to it meanwhile.
    func finish() -> String {
        guard let scratch else { return "" }
        defer { fclose(scratch) }
        guard saved >= 0 else { return "" }
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        rewind(scratch)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, scratch)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
