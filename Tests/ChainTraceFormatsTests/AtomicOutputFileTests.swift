import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

@Suite("Atomic output files")
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
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("w0-0.txt").path)
        let permissions = (attributes[.posixPermissions] as? NSNumber)?.uint16Value ?? 0
        #expect(mode_t(permissions) == 0o666 & ~mask)
        // Nothing half-written is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".partial-") }
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
}
