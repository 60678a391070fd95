import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// Files written whole or not at all, under generated sequences of appends, rewrites, commits and discards, some
/// over an existing file, several at once: a committed file holds exactly the bytes last written or appended; a
/// discarded or abandoned one leaves the old file (or none) exactly as it was; no partial file is ever left behind.
@Suite("Whole or not at all")
struct AtomicOutputPropertyTests {
    @Test(arguments: SeededGenerator.seeds(40))
    func committedFilesHoldExactlyWhatWasWrittenAndNothingElseIsLeft(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        var onDisk: [UInt8]? = nil
        if random.chance(0.5) {
            onDisk = (0..<Int.random(in: 0...100, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            try Data(onDisk!).write(to: URL(fileURLWithPath: path))
        }
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let file = try AtomicOutputFile(path: path)
            var expected: [UInt8] = []
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let chunk = (0..<Int.random(in: 0...5_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                if random.chance(0.3) {
                    try file.write(chunk)
                    expected = chunk
                } else {
                    try file.append(chunk)
                    expected += chunk
                }
            }
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                try file.commit()
                onDisk = expected
            case 1:
                file.discard()
            default:
                break  // abandoned: dropped without a word
            }
            let current = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
            #expect(current == onDisk, "seed \(seed): \(current?.count ?? -1) bytes on disk, expected \(onDisk?.count ?? -1)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "out.bin" }
        #expect(left.isEmpty, "seed \(seed): left behind \(left)")
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func manyFilesAtOnceEachCommitWhole(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("atomic-many")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sizes = (0..<8).map { _ in Int.random(in: 0...200_000, using: &random) }
        DispatchQueue.concurrentPerform(iterations: sizes.count) { index in
            let path = directory.appendingPathComponent("f\(index % 3).bin").path
            guard let file = try? AtomicOutputFile(path: path) else { return }
            try? file.append([UInt8](repeating: UInt8(index), count: sizes[index]))
            try? file.commit()
        }
        // Each of the three paths holds one writer's bytes whole: one value, at one of the sizes written to it.
        for name in 0..<3 {
            let bytes = FileManager.default.contents(atPath: directory.appendingPathComponent("f\(name).bin").path).map { [UInt8]($0) } ?? []
            let writers = sizes.indices.filter { $0 % 3 == name }
            let whole = writers.contains { writer in bytes.count == sizes[writer] && bytes.allSatisfy { $0 == UInt8(writer) } }
            #expect(whole, "seed \(seed): f\(name) holds \(bytes.count) bytes, no writer's whole output")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasSuffix(".bin") || $0.hasPrefix(".") }
        #expect(left.isEmpty, "seed \(seed): left behind \(left)")
    }
}
