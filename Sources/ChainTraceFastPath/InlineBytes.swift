/// Bytes kept in the allocation of an object of a class of the caller's, after the object's header: one
/// allocation where an object holding an array takes two, filled without the array's growth and uniqueness checks,
/// and read in place.
///
/// The class declares no stored property and is made only through ``make(_:capacity:fill:)`` (the bytes take the
/// place stored properties would have; `ManagedBufferPointer` lays them out, as it does for a `ManagedBuffer`). The
/// bytes are written once, by `fill`, before the object is shared, and never again; the class may then be
/// `Sendable`, as a class with no stored property is.
///
/// What it buys: `chaintrace replay --trace-out` keeps each command's fields as text for the log, one object a
/// trace, made on the replaying thread — the thread that holds such a replay up. As an object holding an array,
/// making, filling and freeing it were about a tenth of that replay's samples (perf, the benchmark's *varied*
/// stream shape); the numbers with this are in Docs/Performance.md ("Stop 55"). Tested against an array filled the
/// same way (`FastPathAlgorithmTests`).
package enum InlineBytes {
    /// An object of `type` with room for `capacity` bytes, which `fill` writes from the pointer it is given and
    /// returns how many it wrote (from 0 to `capacity`; more stops the process: it wrote past the room).
    @inlinable
    package static func make<Object: AnyObject>(
        _ type: Object.Type,
        capacity: Int,
        fill: (UnsafeMutablePointer<UInt8>) -> Int
    ) -> Object {
        let room = max(0, capacity)
        let buffer = ManagedBufferPointer<Int, UInt8>(bufferClass: type, minimumCapacity: room) { _, _ in 0 }
        buffer.withUnsafeMutablePointers { count, bytes in
            let written = fill(bytes)
            precondition(written >= 0 && written <= room, "InlineBytes: wrote \(written) bytes into room for \(room)")
            count.pointee = written
        }
        return unsafeDowncast(buffer.buffer, to: type)
    }

    /// Calls `body` with the bytes of `object`, which ``make(_:capacity:fill:)`` made, in place.
    @inlinable
    package static func withBytes<Result>(
        of object: AnyObject,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try ManagedBufferPointer<Int, UInt8>(unsafeBufferObject: object).withUnsafeMutablePointers { count, bytes in
            try body(UnsafeBufferPointer(start: bytes, count: count.pointee))
        }
    }
}
