import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// Files written whole or not at all, under generated sequences of appends, rewrites, commits and discards, some
/// over an existing file, several at once: a committed file holds exactly the bytes last written or appended; a
/// discarded or abandoned one leaves the old file (or none) exactly as it was; no partial file is ever left behind.
@Suite("Whole or not at all", .tags(.concurrent))
struct AtomicOutputPropertyTests {
    @Test(arguments: SeededGenerator.seeds(40))
    func committedFilesHoldExactlyWhatWasWrittenAndNothingElseIsLeft(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        var onDisk: [UInt8]? = nil
        if random.chance(0.5) {
            onDisk = (0..<Int.random(in: 0...100, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
            }
            try Data(onDisk!).write(to: URL(fileURLWithPath: path))
        }
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let file = try AtomicOutputFile(path: path)
            var expected: [UInt8] = []
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let chunk = (0..<Int.random(in: 0...5_000, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
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
            #expect(
                current == onDisk,
                "seed \(seed): \(current?.count ?? -1) bytes on disk, expected \(onDisk?.count ?? -1)"
            )
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
            let bytes =
                FileManager.default.contents(atPath: directory.appendingPathComponent("f\(name).bin").path).map {
                    [UInt8]($0)
                } ?? []
            let writers = sizes.indices.filter { $0 % 3 == name }
            let whole = writers.contains { writer in
                bytes.count == sizes[writer] && bytes.allSatisfy { $0 == UInt8(writer) }
            }
            #expect(whole, "seed \(seed): f\(name) holds \(bytes.count) bytes, no writer's whole output")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            !$0.hasSuffix(".bin") || $0.hasPrefix(".")
        }
        #expect(left.isEmpty, "seed \(seed): left behind \(left)")
    }

    /// What a path is before and after a file is committed to it.
    enum Target: CaseIterable {
        case nothing, file, linkToFile, linkToNothing, pipe, linkToPipe
    }

    /// A file committed to a path that is a link or a named pipe: the link stays a link and the file it leads to
    /// (made, when it was not there) gets the bytes; the pipe stays a pipe and its reader gets them — compressed when asked, and in chunks, for
    /// contents past the megabyte it copies at a time. Nothing temporary is left in either directory.
    @Test(arguments: SeededGenerator.seeds(12))
    func linksAndPipesGetTheBytesAndStayWhatTheyWere(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("atomic-targets")
        defer { try? FileManager.default.removeItem(at: directory) }
        let temporary = try TestFiles.newDirectory("atomic-temporary")
        defer { try? FileManager.default.removeItem(at: temporary) }
        // Consecutive seeds take each kind of target in turn.
        let target = Target.allCases[Int(seed % UInt64(Target.allCases.count))]
        let compressed = random.chance(0.4)
        let path = directory.appendingPathComponent("out.bin").path
        let real = directory.appendingPathComponent("real.bin").path
        switch target {
        case .nothing: break
        case .file: try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        case .linkToFile:
            try Data("old".utf8).write(to: URL(fileURLWithPath: real))
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "real.bin")
        case .linkToNothing:
            // Followed: the file it names is made, and the link stays (as `/dev/stdout` with standard output closed).
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "real.bin")
        case .pipe: #expect(mkfifo(path, 0o600) == 0)
        case .linkToPipe:
            #expect(mkfifo(real, 0o600) == 0)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: real)
        }
        let count =
            random.chance(0.3)
            ? Int.random(in: 1_000_000...3_000_000, using: &random) : Int.random(in: 0...5_000, using: &random)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed % 7)) }
        // A pipe is read on its own thread while the file is committed into it.
        let pipePath = target == .linkToPipe ? real : path
        let received = ReceivedBytes<Data?>(nil)
        let readerDone = DispatchSemaphore(value: 0)
        if target == .pipe || target == .linkToPipe {
            Thread.detachNewThread {
                let handle = FileHandle(forReadingAtPath: pipePath)
                received.value = handle?.readDataToEndOfFile()
                readerDone.signal()
            }
        }
        let file = try AtomicOutputFile(path: path, compressed: compressed, temporaryDirectory: temporary.path + "/")
        try file.append(bytes)
        try file.commit()
        var written: Data
        switch target {
        case .pipe, .linkToPipe:
            #expect(readerDone.wait(timeout: .now() + 60) == .success, "seed \(seed): nothing reached the pipe")
            written = received.value ?? Data()
            var status = stat()
            #expect(
                stat(pipePath, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO,
                "seed \(seed): the pipe was replaced"
            )
        case .linkToFile, .linkToNothing:
            written = try Data(contentsOf: URL(fileURLWithPath: real))
        case .nothing, .file:
            written = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        if target == .linkToFile || target == .linkToNothing || target == .linkToPipe {
            var status = stat()
            #expect(
                lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK,
                "seed \(seed): the link was replaced"
            )
        }
        if compressed {
            let archive = temporary.appendingPathComponent("received.gz").path
            try written.write(to: URL(fileURLWithPath: archive))
            written = try TestFiles.gunzip(path: archive)
            try FileManager.default.removeItem(atPath: archive)
        }
        #expect(written == Data(bytes), "seed \(seed), \(target), compressed \(compressed), \(count) bytes")
        for place in [directory, temporary] {
            let left = try FileManager.default.contentsOfDirectory(atPath: place.path).filter {
                $0.contains(".partial-")
            }
            #expect(left.isEmpty, "seed \(seed): left \(left) in \(place.path)")
        }
    }
}

/// A value one thread sets and another reads after a semaphore.
private final class ReceivedBytes<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
