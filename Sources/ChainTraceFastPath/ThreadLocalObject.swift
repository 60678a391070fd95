#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One object per thread, made on the thread's first use and released when the thread exits, reached through a
/// single pthread key.
///
/// `current` returns the object without retaining it first: the key holds it for the thread's life. Swift's
/// `@TaskLocal` is per task, not per thread, and Foundation's `Thread.threadDictionary` costs a dictionary lookup
/// and a cast; the per-thread recording state is read on every send, so this is one `pthread_getspecific`.
///
/// `@unchecked Sendable`: the key is written once, in `init`, and only read afterwards.
public final class ThreadLocalObject<Value: AnyObject>: @unchecked Sendable {
    @usableFromInline let key: pthread_key_t
    @usableFromInline let make: @Sendable () -> Value

    /// A key whose first use on each thread makes that thread's object with `make`.
    public init(make: @escaping @Sendable () -> Value) {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let destructor: @convention(c) (UnsafeMutableRawPointer) -> Void = { pointer in
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        #else
        let destructor: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        #endif
        let status = pthread_key_create(&key, destructor)
        precondition(status == 0, "ChainTrace could not create a thread-local key (pthread_key_create: \(status))")
        self.key = key
        self.make = make
    }

    /// The calling thread's object.
    @inlinable
    public var current: Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// Calls `body` with the calling thread's object, not retained: the key holds it for the thread's life, which
    /// outlasts the call. Returned by `current`, the object was retained and released around every use — an atomic
    /// read-modify-write each, about 10 ns a hop of a traced `traceHop` chain (`chaintrace-benchmarks`, interleaved).
    @inlinable
    public func withCurrent<T>(_ body: (Value) throws -> T) rethrows -> T {
        if let pointer = pthread_getspecific(key) {
            return try Unmanaged<Value>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        return try body(makeCurrent())
    }

    /// The calling thread's object if it has made one and is not exiting, without making one.
    public var existing: Value? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    @usableFromInline
    func makeCurrent() -> Value {
        let value = make()
        pthread_setspecific(key, Unmanaged.passRetained(value as AnyObject).toOpaque())
        return value
    }
}
