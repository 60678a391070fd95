import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

@Suite("Atomic output files", .tags(.concurrent))
struct AtomicOutputFileTests {
    #if os(Linux)
        /// The process's umask as the kernel reports it, read without changing it.
        static func currentUmask() throws -> mode_t {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") } ?? ""
            return mode_t(line.split(separator: "\t").last.flatMap { UInt32($0, radix: 8) } ?? 0)
        }

        @Test func committingNeverTouchesTheProcessUmaskAndGivesNormalPermissions() async throws {
            let directory = TestFiles.directory.appendingPathComponent("atomic-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let mask = try Self.currentUmask()
            // Many files committed on several threads while the umask is watched: a commit that set it, even for a
            // moment, would be seen (and would race with every other thread creating files).
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for index in 0..<200 {
                            let path = directory.appendingPathComponent("w\(worker)-\(index).txt").path
                            let file = try AtomicOutputFile(path: path)
                            try file.write(Array("content \(index)\n".utf8))
                            try file.commit()
                        }
                    }
                }
                group.addTask {
                    for _ in 0..<2_000 {
                        let current = try Self.currentUmask()
                        #expect(current == mask)
                    }
                }
                try await group.waitForAll()
            }
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent("w0-0.txt").path
            )
            let permissions = (attributes[.posixPermissions] as? NSNumber)?.uint16Value ?? 0
            #expect(mode_t(permissions) == 0o666 & ~mask)
            // Nothing half-written is left behind.
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.contains(".partial-")
            }
            #expect(left.isEmpty)
        }
    #endif

    @Test func aDiscardedFileLeavesTheTargetAsItWas() throws {
        let path = TestFiles.directory.appendingPathComponent("atomic-\(UUID().uuidString).txt").path
        try "before".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try AtomicOutputFile(path: path)
        try file.write(Array("after".utf8))
        file.discard()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "before")
    }

    /// Which paths name one of the process's own descriptors (written into where the shell opened it, not renamed
    /// over): `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, and `/dev/fd/N` or `/proc/self/fd/N` with N all digits,
    /// no more than fit. Generated near misses — other prefixes, letters or signs among the digits, no digits, too
    /// many — against a plain reading of that rule.
    @Test(arguments: SeededGenerator.seeds(8))
    func ownDescriptorsAreNamedExactly(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        func reference(_ path: String) -> Int32? {
            let named: [String: Int32] = ["/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2]
            if let descriptor = named[path] { return descriptor }
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let digits = path.dropFirst(prefix.count)
                guard !digits.isEmpty, digits.allSatisfy({ "0123456789".contains($0) }), let value = Int64(digits),
                    value <= Int64(Int32.max), digits.count <= 9
                else { return nil }
                return Int32(value)
            }
            return nil
        }
        let prefixes = [
            "/dev/fd/", "/proc/self/fd/", "/dev/fd", "/proc/self/fd", "/dev/fdx/", "dev/fd/", "/proc/1/fd/", "",
            "/dev/",
        ]
        let pieces = [
            "0", "1", "2", "7", "9", "12", "0001", "123456789", "1234567890", "99999999999", "a", "-1", "+1", " 1", "/",
            ".", "é", "stdout", "stderr", "stdin",
        ]
        for _ in 0..<400 {
            var path = random.pick(prefixes)
            for _ in 0..<random.next() % 3 { path += random.pick(pieces) }
            #expect(AtomicOutputFile.ownDescriptor(path) == reference(path), "seed \(seed): \(path)")
        }
    }
}
