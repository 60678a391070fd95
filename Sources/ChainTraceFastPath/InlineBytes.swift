/// Bytes kept in the allocation of an object of a class of the caller's, after the object's header: one
/// allocation where an object holding an array takes two, filled without the array's growth and uniqueness checks,
/// and read in place.
///
/// The class declares no stored property and is made only through ``make(_:capacity:fill:)`` (the bytes take the
/// place stored properties would have; `ManagedBufferPointer` lays them out, as it does for a `ManagedBuffer`). The
/// bytes are written once, by `fill`, before the object is shared, and never again; the class may then be
/// `Sendable`, as a class with no stored property is.
///
/// The bytes may be written as two parts, read apart (``parts(of:)``): a replay's fields text, and after it the
/// command's id, which the trace then need not hold as a `String` of its own.
///
/// What it buys: `chaintrace replay --trace-out` keeps each command's fields as text for the log, one object a
/// trace, made on the replaying thread — the thread that holds such a replay up. As an object holding an array,
/// making, filling and freeing it were about a tenth of that replay's samples (perf, the benchmark's *varied*
/// stream shape; `chaintrace-cli-benchmarks`, "replay with trace log" column). Tested against an array filled the
/// same way (`FastPathAlgorithmTests`).
@usableFromInline package enum InlineBytes {
    /// What the object's allocation holds before its bytes: how many were written, and where the second of the
    /// two parts they may be written as begins.
    @usableFromInline struct Header {
        @usableFromInline var count: Int
        @usableFromInline var split: Int

        @usableFromInline init(count: Int, split: Int) {
            self.count = count
            self.split = split
        }
    }

    /// An object of `type` with room for `capacity` bytes, which `fill` writes from the pointer it is given; it
    /// returns how many it wrote in all (from 0 to `capacity`) and where the second part begins (from 0 to that
    /// count: the count itself for bytes in one part); anything else stops the process (it wrote past the room).
    @inlinable
    package static func make<Object: AnyObject>(
        _ type: Object.Type,
        capacity: Int,
        fill: (UnsafeMutablePointer<UInt8>) -> (count: Int, split: Int)
    ) -> Object {
        let room = max(0, capacity)
        let buffer = ManagedBufferPointer<Header, UInt8>(bufferClass: type, minimumCapacity: room) { _, _ in
            Header(count: 0, split: 0)
        }
        buffer.withUnsafeMutablePointers { header, bytes in
            let (written, split) = fill(bytes)
            precondition(written >= 0 && written <= room, "InlineBytes: wrote \(written) bytes into room for \(room)")
            precondition(split >= 0 && split <= written, "InlineBytes: a part from byte \(split) of \(written)")
            header.pointee = Header(count: written, split: split)
        }
        return unsafeDowncast(buffer.buffer, to: type)
    }

    /// The two parts of the bytes of `object`, which ``make(_:capacity:fill:)`` made, in place: valid while
    /// `object` lives.
    ///
    /// Not generic, and taking no body to call: from a generic context (a payload's `withKeptText`, called through
    /// its protocol) a generic call whose body returned an optional looked up `Optional`'s metadata at run time
    /// on every call — `chaintrace replay --trace-out` of 100 000 *varied* lines ran 2 815.4 M instructions so,
    /// 2 700.9 M with this (callgrind).
    @inlinable
    package static func parts(of object: AnyObject) -> (
        first: UnsafeBufferPointer<UInt8>, second: UnsafeBufferPointer<UInt8>
    ) {
        ManagedBufferPointer<Header, UInt8>(unsafeBufferObject: object).withUnsafeMutablePointers { header, bytes in
            let (count, split) = (header.pointee.count, header.pointee.split)
            return (
                UnsafeBufferPointer(start: bytes, count: split),
                UnsafeBufferPointer(start: bytes + split, count: count &- split)
            )
        }
    }
}
