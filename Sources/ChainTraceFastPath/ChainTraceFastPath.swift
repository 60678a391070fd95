// ChainTraceFastPath: the few tricks that exist only for speed, in one internal target (no product). Everything
// else in ChainTrace is plain Swift; the grep `@exclusivity\(unchecked\)|_withUnsafeGuaranteedRef|Unmanaged`
// finds them here and nowhere else.
//
// Each trick says, in its file, what it buys as measured by `chaintrace-benchmarks` (release, interleaved runs
// with and without it on the same machine), and has a differential test against the plain form
// (Tests/ChainTraceTests/FastPathTests.swift):
//
// - `UncheckedCell`: a value whose accesses skip the run-time exclusivity check, for state only one thread
//   touches (per-thread state, a lock's protected value, a decoder's line state, a profile's counters).
// - `LockedValue`: a mutex around an `UncheckedCell`.
// - `ThreadLocalObject`: one object per thread through a pthread key, read without retaining it.
// - `UnretainedObject`: a reference that calls its object without touching its reference count, for objects
//   something else keeps alive.
//
// Why `public` and not `package`: Swift 6.3 does not inline `package` declarations into other modules, even
// `@inlinable` or `@_alwaysEmitIntoClient` ones (checked with a two-module package: the client calls them), and
// the flags that would (`-package-cmo`) are unsafe flags a dependency cannot use. Behind a `package` interface,
// every access to the per-thread state became a coroutine call: an untraced send through a 10-handler chain went
// from 7.9 to 10.8 ns a hop and a replay of a million commands lost half its speed. So the interface is `public`
// and `@inlinable`; the target is still no product, and nothing outside ChainTrace's own targets may import it.
