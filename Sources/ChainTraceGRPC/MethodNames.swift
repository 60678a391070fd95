#if GRPC
    import ChainTraceFastPath
    import GRPCCore

    /// The names a traced RPC of one method gives its trace: its command kind and handler hop, `echo.Echo/Get`; its
    /// client call hop, `echo.Echo/Get (call)`; and the hop that produces its response stream, `echo.Echo/Get stream`.
    ///
    /// Made once a method on each thread and kept (``of(_:)``), not once an RPC: `MethodDescriptor`'s
    /// `fullyQualifiedMethod` interpolates its service's description at every use, a new string (on the heap past
    /// 15 bytes) three times a traced RPC; the same string each RPC also lets the trace open the hop by its name's
    /// identity. What it buys: `chaintrace-grpc-benchmarks`, "traced", 0 interceptors (callgrind).
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct MethodNames: Sendable {
        /// `echo.Echo/Get`: the command's kind, and the server's handler hop.
        let method: String
        /// `echo.Echo/Get (call)`: a client's hop of the call itself, below its interceptors.
        let call: String
        /// `echo.Echo/Get stream`: the hop that produces a server's response after its interceptors returned.
        let stream: String

        /// The names of `descriptor`'s RPCs, made now.
        init(_ descriptor: MethodDescriptor) {
            method = descriptor.fullyQualifiedMethod
            call = method + " (call)"
            stream = method + " stream"
        }

        /// The names of `descriptor`'s RPCs: the calling thread's, made on its first RPC of the method.
        static func of(_ descriptor: MethodDescriptor) -> MethodNames {
            threadCaches.withCurrent { $0.names(of: descriptor) }
        }

        /// Each thread's names of the methods it traced last.
        private static let threadCaches = ThreadLocalObject { MethodNameCache() }
    }

    /// The names of the last few methods one thread traced, most servers' every method: read and written by that
    /// thread only, so without a lock. A thread that traces more methods than it keeps replaces them in turn.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    final class MethodNameCache {
        /// How many methods a thread keeps the names of.
        static let capacity = 16

        private var descriptors: [MethodDescriptor] = []
        private var names: [MethodNames] = []
        /// The entry the next method past ``capacity`` replaces.
        private var nextReplaced = 0

        /// `descriptor`'s names, kept or made now (and kept).
        func names(of descriptor: MethodDescriptor) -> MethodNames {
            // Generated code's descriptors are made of string literals: equal ones compare by their storage at once.
            for index in descriptors.indices where descriptors[index] == descriptor { return names[index] }
            let made = MethodNames(descriptor)
            if descriptors.count < Self.capacity {
                descriptors.append(descriptor)
                names.append(made)
            } else {
                descriptors[nextReplaced] = descriptor
                names[nextReplaced] = made
                nextReplaced = (nextReplaced + 1) % Self.capacity
            }
            return made
        }
    }
#endif
