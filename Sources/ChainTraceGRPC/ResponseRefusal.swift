#if GRPC
    import ChainTraceFastPath
    import GRPCCore

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    extension StreamingServerResponse {
        /// The refusal this response is, or `nil` when it was accepted.
        var refusal: RPCError? {
            if case .failure(let error) = accepted { error } else { nil }
        }

        /// Whether this type lays out as its instance for `Never`, so that a hop can read it as one
        /// (`refusal(in:readErased:)`): true of every message type while gRPC
        /// stores only a closure over the message in it; checked once an RPC, in case a later gRPC stores more.
        static var readsErased: Bool { haveSameLayout(Self.self, StreamingServerResponse<Never>.self) }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    extension StreamingClientResponse {
        /// The refusal this response is, or `nil` when its head came back accepted.
        var refusal: RPCError? {
            if case .failure(let error) = accepted { error } else { nil }
        }

        /// Whether this type lays out as its instance for `Never`, as for a server's response: gRPC stores only an
        /// existential sequence over the message in it.
        static var readsErased: Bool { haveSameLayout(Self.self, StreamingClientResponse<Never>.self) }
    }

    /// The refusal `response` is, or `nil`: read as a `StreamingServerResponse<Never>` when `readErased` (the
    /// response type's `readsErased`). A hop runs in code generic over the message, where
    /// reading the response as its own type instantiates three types' metadata each time
    /// (`readThroughSameLayout`). Only the enum's case is read, and the error on a refusal.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @inline(__always)
    func refusal<Output>(in response: inout StreamingServerResponse<Output>, readErased: Bool) -> RPCError? {
        guard readErased else { return response.refusal }
        return readThroughSameLayout(&response, as: StreamingServerResponse<Never>.self) { response in
            switch response.accepted {
            case .success: nil
            case .failure(let error): error
            }
        }
    }

    /// The refusal `response` is, or `nil`, read as for a server's response.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @inline(__always)
    func refusal<Output>(in response: inout StreamingClientResponse<Output>, readErased: Bool) -> RPCError? {
        guard readErased else { return response.refusal }
        return readThroughSameLayout(&response, as: StreamingClientResponse<Never>.self) { response in
            switch response.accepted {
            case .success: nil
            case .failure(let error): error
            }
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    extension RPCHops {
        /// The refusal `response`, returned by one of this RPC's hops, is, or `nil`.
        @inline(__always)
        func refusal<Output>(in response: inout StreamingServerResponse<Output>) -> RPCError? {
            ChainTraceGRPC.refusal(in: &response, readErased: readsResponsesErased)
        }

        /// The refusal `response`, whose head came back through one of this call's hops, is, or `nil`.
        @inline(__always)
        func refusal<Output>(in response: inout StreamingClientResponse<Output>) -> RPCError? {
            ChainTraceGRPC.refusal(in: &response, readErased: readsResponsesErased)
        }
    }
#endif
