// ChainTraceFastPath: the code that exists only for speed, in one internal target (no product). Everything else
// in ChainTrace is plain Swift; the grep `@exclusivity\(unchecked\)|_withUnsafeGuaranteedRef|Unmanaged` finds them
// here and nowhere else. Raw memory outside it is the reading of a file's or a line's bytes, the C interfaces
// (Graphviz, file descriptors), and the core's pieces listed at the end.
//
// Each piece says, in its file, what it buys as measured by `chaintrace-benchmarks` or `chaintrace-cli-benchmarks`
// (release, interleaved runs with and without it on the same machine), and has a differential test against a
// plain form of the same thing (Tests/ChainTraceTests/FastPathTests.swift and FastPathAlgorithmTests.swift;
// the byte cursor in Tests/ChainTraceFormatsTests/JSONByteCursorTests.swift and the decoders built on it in the
// stream and trace-log differential tests).
//
// The primitives:
// - `UncheckedCell`: a value whose accesses skip the run-time exclusivity check, for state only one thread
//   touches (per-thread state, a lock's protected value, a decoder's line state, a profile's counters).
// - `LockedValue`: a mutex around an `UncheckedCell`.
// - `WordLock`: a lock of one word (a compare-and-swap to take, a release store to let go), for an async
//   instrumented trace's few dozen instructions of bookkeeping a hop.
// - `ThreadLocalObject`: one object per thread through a pthread key, read without retaining it (`withCurrent`
//   lends it to a closure without even the retain a returned reference costs).
// - `PlainValueBuffer`: a noncopyable growable list of plain values, written without copy-on-write checks, for an
//   instrumented trace's records and open hops.
// - `UnretainedObject`: a reference that calls its object without touching its reference count, for objects
//   something else keeps alive.
// - `HandOffQueue` and `PublishedCounter`: a lock-free queue from one recording thread to the trace log writer,
//   and a count one thread publishes to another (release store, acquire load). The writer borrows what it
//   drains, so that the recording thread, which allocated each trace, frees it.
// - `ThreadScratch`: one scratch object per thread lent to each call, for the JSON text writer that captures
//   payloads.
// - `ConditionLock` and `JoinableThread`: the pthread mutex, condition and thread the trace log writer sleeps,
//   wakes and is joined with — not speed tricks, but raw system calls, kept here with the others.
// - `IdleBackoff`: how long the writer sleeps while it has nothing to do, longer and longer up to 64 ms.
// - `ByteChunk`: text of integers built on the stack and appended to an array at once (the compact log encoder).
// - `InlineBytes`: bytes kept in their object's own allocation, in one part or two, for the fields text (and the
//   long command id) a replay hands its trace log.
// - `StringIdentity`: a string's two words, compared in line, so that an instrumented hop named as the last trace's
//   hop was opens without passing (and retaining) its name.
// - `StringIndexCache`: numbers kept by string identity, for the compact log encoder's names met again.
// - `ReflectedLinks`: a list a library keeps in private properties (SwiftNIO's pipeline of handler contexts), found
//   by name and type in the runtime's field records and read at their offsets, where the library's only public
//   listing is a description that costs several times more to make.
// - `reinterpretingSoleStoredProperty`: a struct a library keeps one private property in (gRPC's subject of an
//   interceptor pipeline's operation, a closure), read as a struct of the caller's with the same one property.
//
// The algorithms the formats and the analysis are built on, in neutral terms (bytes, indexes, generic values),
// so that this target needs nothing of the model above it:
// - `JSONByteCursor`, `RawKey`, `NameTable`, `NameBytes`: JSON read eight bytes at a time, with interned names,
//   for the command-stream and trace-log line decoders (the general parser in ChainTraceJSON is the fallback).
// - `UTF8Validation`: UTF-8 checked in place, without the string `String(validating:)` makes.
// - `MemberKeyCache`: the keys of the previous line, compared as words.
// - `NameIndex` and `SlotValues`: a chain's rule fields found by their bytes, and one command's values for them.
// - `CommandStorage`: a command's contents, refilled for every line of a stream (`JSONCommand` is a value over it).
// - `HopCounters`: a profile's per-hop counts in memory written without copy-on-write checks.
//
// What stays in the core, and why. This target sits below the core, because the core's hot paths use its
// primitives; so what is typed by the core's own generic handlers and records cannot move here without a cycle.
// Those pieces use the primitives above or the standard library's unsafe APIs, each in a file that says what it
// buys, measured: a `Trace` is one `ManagedBuffer` (a header and its hop records — the model's representation),
// reused by the recorder when the trace is dropped (`Trace.recycle`) or a trace log has written it
// (`Trace.recycle`, handed back by `HandOffQueue.push(_:reclaiming:)`: `chaintrace-benchmarks`' "trace log,
// background, drop when behind" row, about 10 ns a hop); a chain's compiled snapshot calls its
// handler boxes unretained (CompiledChain: an untraced hop 7.8 against 16 ns retained); a chain publishes edits
// through one word other threads load (ChainBase); and the per-thread state caches snapshots (ThreadState). An
// instrumented trace lends, with `UnretainedObject`, what it or its thread holds for the whole of a command — its
// recorder's configuration, its name table, its command type's facts, the in-memory sink's shard (ActiveTrace,
// ThreadState.withSlot and withCommandTypeInfo): about 27 atomic reference-count and lock operations a traced
// `traceHop` command became 7 (callgrind), about 6 ns a hop off "instrumented chain (traceHop), traced".
// Likewise a chain definition's compiled rules stay with the rules (ChainTraceDefinitions' `CompiledRule`): they
// are plain Swift — a protocol and its types, no unsafe code — typed by `JSONCommand`, and are checked against
// the written rules they stand for (CompiledRuleTests); they read the slots above.
//
// Why `public` and not `package`: Swift 6.3 does not inline `package` declarations into other modules, even
// `@inlinable` or `@_alwaysEmitIntoClient` ones (checked with a two-module package: the client calls them), and
// the flags that would (`-package-cmo`) are unsafe flags a dependency cannot use. Behind a `package` interface,
// every access to the per-thread state became a coroutine call: an untraced send through a 10-handler chain went
// from 7.9 to 10.8 ns a hop and a replay of a million commands lost half its speed. So the interface is `public`
// and `@inlinable`; the target is still no product, and nothing outside ChainTrace's own targets may import it.
