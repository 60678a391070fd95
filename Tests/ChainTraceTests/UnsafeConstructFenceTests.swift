import ChainTraceTestSupport
import Foundation
import Testing

/// Unsafe code is fenced. `ChainTraceFastPath` is the fence: its tricks exist only for speed, each file saying what
/// it buys and which benchmark row shows it. Anywhere else, a file may use an unsafe construct — raw pointers,
/// `@unchecked Sendable`, `Unmanaged`, unsafe casts, `ManagedBuffer`, `nonisolated(unsafe)`, or
/// `@usableFromInline` opening internals to inlined code — only as this allowlist says, with its reason. The list is
/// exact both ways: a new use fails, and so does an entry no longer needed.
@Suite("Unsafe code stays inside its fence")
struct UnsafeConstructFenceTests {
    enum Construct: String, CaseIterable, Sendable {
        case pointers, unchecked, unmanaged, casts, managedBuffer, nonisolatedUnsafe, usableFromInline

        var pattern: Regex<Substring> {
            switch self {
            case .pointers: #/\bUnsafe[A-Z]\w*|\bwithUnsafe\w*/#
            case .unchecked: #/@unchecked/#
            case .unmanaged: #/\bUnmanaged\b/#
            case .casts: #/\bunsafeBitCast\b|\bunsafeDowncast\b/#
            case .managedBuffer: #/\bManagedBuffer\w*/#
            case .nonisolatedUnsafe: #/nonisolated\(unsafe\)/#
            case .usableFromInline: #/@usableFromInline/#
            }
        }
    }

    /// Why a file outside the fast path may use what it uses.
    enum Reason: String, Sendable {
        case bytesInPlace =
            "reads or writes bytes where they are (a line, a file's contents, a writer's buffer) instead of copying them: the decoders and encoders of every format"
        case systemCalls =
            "hands buffers to system calls (read, write, pwrite, ioctl) and the C libraries that take them"
        case lineReading =
            "a line reader lends each line's bytes in place, inlined into the decoders (`chaintrace-cli-benchmarks`, \"replay\" and \"stats\" columns)"
        case inlinedHopPath =
            "reached from the inlinable hop paths — `traceHop` and `Chain.send` are inlined into the caller's code, so that with no recorder a hop costs one load (`chaintrace-benchmarks`, \"recorder off\" rows)"
        case probeHopPath =
            "inlined into the NIO probes: a probe inside an event a probe before it traces opens its hop on that trace directly (`chaintrace-nio-benchmarks`, \"traceEventsNow(), traced into memory\", instructions a hop)"
        case sendIsInlined =
            "`send` is inlined into the caller (`chaintrace-benchmarks`, \"Chain, no recorder\" and \"Chain, recorder off\"); the chain's state is under its core's lock"
        case snapshots =
            "edits publish a snapshot through one word other threads load, and threads cache it unretained, so a send takes no lock (`chaintrace-benchmarks`, \"2 threads, one shared chain\")"
        case compiledChain =
            "a chain's snapshot calls its handler boxes unretained, through raw pointers: an untraced hop about half the time of a retained one (`chaintrace-benchmarks`, \"Chain, no recorder (untraced)\")"
        case hopRecords =
            "a trace's hop records are read and written in place in its storage (`chaintrace-benchmarks`, \"Chain, traced into memory\")"
        case traceStorage =
            "a trace is one `ManagedBuffer` — its header and hop records — reused when dropped or written (`chaintrace-benchmarks`, \"Chain, traced into memory\", \"trace log\" rows); immutable once made, so `Sendable`"
        case payloadBytes =
            "a payload's text lives in its object's own allocation and is read in place (`chaintrace-cli-benchmarks`, \"replay with trace log\")"
        case activeTrace =
            "a trace being built is touched by one thread, or under its lock when tasks share it (the class's comment proves it); reached from the inlined hop path"
        case lockedState = "every mutable property is behind a lock (the class's comment proves it)"
        case threadState =
            "per-thread state lends the thread's cached objects unretained (`chaintrace-benchmarks`, \"instrumented chain (traceHop), traced\")"
        case commandReaders =
            "a command type's kind, id and payload are read through one opened conformance, not a cast a command (`chaintrace-benchmarks`, \"Chain, traced + payload capture\")"
        case commandStorage =
            "a replayed command's storage is refilled in place when nobody else holds it (`chaintrace-cli-benchmarks`, \"replay\" column)"
        case immutableRegex = "a compiled `Regex` is not `Sendable`, but this one is never changed after it is made"
        case graphviz =
            "libgvc is C: its graph, context and output buffers are pointers, and every call is serialised on one lock (libgvc is not thread-safe)"
        case cFiles = "standard error is swapped for a C `FILE` while libgvc writes its errors there"
    }

    /// Every file outside the fast path that uses an unsafe construct, what it uses, and why.
    static let allowlist: [String: (constructs: Set<Construct>, reason: Reason)] = [
        "ChainTrace/Chains/AsyncChain.swift": ([.unchecked, .usableFromInline], .sendIsInlined),
        "ChainTrace/Chains/Chain.swift": ([.pointers, .unchecked, .usableFromInline], .sendIsInlined),
        "ChainTrace/Chains/ChainBase.swift": ([.pointers, .unchecked, .casts, .usableFromInline], .snapshots),
        "ChainTrace/Chains/ChainError.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Chains/CompiledChain.swift": ([.pointers, .unchecked, .usableFromInline], .compiledChain),
        "ChainTrace/Chains/Handler.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Chains/HandlerResponse.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Chains/HandlerTurn.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Chains/HopObserver.swift": ([.pointers, .usableFromInline], .hopRecords),
        "ChainTrace/Clock/MonotonicClock.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Instrumentation/AsyncHop.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Instrumentation/CarriedTrace.swift": ([.unchecked], .lockedState),
        "ChainTrace/Instrumentation/HopTraceLookup.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Instrumentation/SynchronousHop.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Instrumentation/ThreadTraceHandle.swift": ([.usableFromInline], .probeHopPath),
        "ChainTrace/Instrumentation/TaskHops.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Model/CompactHops.swift": ([.pointers, .usableFromInline], .hopRecords),
        "ChainTrace/Model/EncodedPayload.swift": ([.pointers, .usableFromInline], .payloadBytes),
        "ChainTrace/Model/HopRecord.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Model/HopSource.swift": ([.pointers, .usableFromInline], .hopRecords),
        "ChainTrace/Model/NameLineage.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Model/SharedTraceNames.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Model/Trace.swift": ([.unchecked, .usableFromInline], .traceStorage),
        "ChainTrace/Model/TraceStorage.swift": ([.pointers, .casts, .managedBuffer, .usableFromInline], .traceStorage),
        "ChainTrace/Recording/ActiveTrace.swift": ([.unchecked, .usableFromInline], .activeTrace),
        "ChainTrace/Recording/ChainTracing.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/DeferredPayload.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/HopDecisionInference.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/InMemoryTraceSink.swift": ([.unchecked], .lockedState),
        "ChainTrace/Recording/PayloadCapture.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/Recorder.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/Sampling.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/SendingThread.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/SharedTraceHops.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/ThreadState.swift": ([.casts, .usableFromInline], .threadState),
        "ChainTrace/Recording/TraceCaptureScope.swift": ([.usableFromInline], .inlinedHopPath),
        "ChainTrace/Recording/TraceDelivery.swift": ([.pointers], .hopRecords),
        "ChainTrace/Recording/TracedCommand.swift": ([.pointers, .usableFromInline], .commandReaders),
        "ChainTraceAnalysis/ChainProfile.swift": ([.pointers], .bytesInPlace),
        "ChainTraceAnalysis/HandlerStatistics.swift": ([.pointers], .bytesInPlace),
        "ChainTraceCLI/Terminal.swift": ([.pointers], .systemCalls),
        "ChainTraceDefinitions/FieldSchema.swift": ([.pointers], .bytesInPlace),
        "ChainTraceDefinitions/JSONCommand.swift": ([.pointers, .usableFromInline], .commandStorage),
        "ChainTraceDefinitions/JSONFieldsText.swift": ([.pointers], .bytesInPlace),
        "ChainTraceDefinitions/OtherFileGivenAsDefinition.swift": ([.pointers], .bytesInPlace),
        "ChainTraceDefinitions/Pattern.swift": ([.unchecked], .immutableRegex),
        "ChainTraceFiles/AtomicOutputFile.swift": ([.pointers], .systemCalls),
        "ChainTraceFiles/FileBytes.swift": ([.pointers], .systemCalls),
        "ChainTraceFiles/FileDescriptor.swift": ([.pointers], .systemCalls),
        "ChainTraceFiles/JSONLinesReader.swift": ([.pointers, .usableFromInline], .lineReading),
        "ChainTraceFiles/LineReader.swift": ([.pointers, .usableFromInline], .lineReading),
        "ChainTraceGraphviz/GraphvizRenderer.swift": ([.pointers, .unchecked, .nonisolatedUnsafe], .graphviz),
        "ChainTraceGraphviz/StandardErrorCapture.swift": ([.pointers], .cFiles),
        "ChainTraceJSON/JSONByteCursorValue.swift": ([.pointers], .bytesInPlace),
        "ChainTraceJSON/JSONDocument.swift": ([.pointers], .bytesInPlace),
        "ChainTraceJSON/JSONParser.swift": ([.pointers], .bytesInPlace),
        "ChainTraceJSON/JSONWriter.swift": ([.pointers], .bytesInPlace),
        "ChainTraceReplay/CommandReadAhead.swift": ([.unchecked], .lockedState),
        "ChainTraceReplay/Streams/CommandLineDecoder.swift": ([.pointers], .bytesInPlace),
        "ChainTraceTraceLog/CompactTraceLogDecoder.swift": ([.pointers], .bytesInPlace),
        "ChainTraceTraceLog/CompactTraceLogFormat.swift": ([.pointers], .bytesInPlace),
        "ChainTraceTraceLog/JSONTextPayload.swift": ([.pointers], .bytesInPlace),
        "ChainTraceTraceLog/OpenTraceLogSinks.swift": ([.unchecked], .lockedState),
        "ChainTraceTraceLog/TraceLineDecoder.swift": ([.pointers], .bytesInPlace),
        "ChainTraceTraceLog/TraceLineNames.swift": ([.pointers], .bytesInPlace),
        "ChainTraceTraceLog/TraceLogFile.swift": ([.pointers], .systemCalls),
    ]

    static let sources = BuiltProduct.packageRoot.appendingPathComponent("Sources")

    static func swiftFiles() throws -> [String] {
        try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The constructs a file's code uses (comments left out).
    static func constructs(in file: String) throws -> Set<Construct> {
        let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        let code = text.components(separatedBy: "\n").map { $0.components(separatedBy: "//")[0] }.joined(
            separator: "\n"
        )
        // Simple word boundaries: by Unicode's rules `records.withUnsafeBufferPointer` is one word.
        return Set(Construct.allCases.filter { code.contains($0.pattern.wordBoundaryKind(.simple)) })
    }

    @Test func nothingOutsideTheFastPathUsesMoreThanItsEntrySays() throws {
        for file in try Self.swiftFiles() where !file.hasPrefix("ChainTraceFastPath/") {
            let used = try Self.constructs(in: file)
            let allowed = Self.allowlist[file]?.constructs ?? []
            let extra = used.subtracting(allowed)
            #expect(
                extra.isEmpty,
                "\(file) uses \(extra.map(\.rawValue).sorted()) outside the fence: move the trick into ChainTraceFastPath, or add it to the allowlist with its reason"
            )
        }
    }

    @Test func everyEntryIsStillNeeded() throws {
        let files = Set(try Self.swiftFiles())
        for (file, entry) in Self.allowlist.sorted(by: { $0.key < $1.key }) {
            #expect(files.contains(file), "\(file) is in the allowlist but no longer exists")
            guard files.contains(file) else { continue }
            let unused = entry.constructs.subtracting(try Self.constructs(in: file))
            #expect(
                unused.isEmpty,
                "\(file) no longer uses \(unused.map(\.rawValue).sorted()): take it out of its entry"
            )
        }
    }

    /// The fence itself: every fast-path file says what it buys and which benchmark shows it.
    @Test func everyFastPathTrickSaysWhatItBuysAndWhichRowShowsIt() throws {
        for file in try Self.swiftFiles() where file.hasPrefix("ChainTraceFastPath/") {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            // A raw system primitive (a lock, a condition, a thread) says it is no speed trick, and why it is here.
            if text.contains("Not a speed trick") { continue }
            #expect(text.localizedCaseInsensitiveContains("what it buys"), "\(file) does not say what it buys")
            #expect(
                text.contains("chaintrace-benchmarks") || text.contains("chaintrace-cli-benchmarks")
                    || text.contains("chaintrace-grpc-benchmarks") || text.contains("chaintrace-nio-benchmarks")
                    || text.contains("report-benchmark") || text.contains("VendingMachineOTel bench")
                    || text.contains("count-sample-instructions"),
                "\(file) names no benchmark that shows what it buys"
            )
        }
    }
}
