#if GRPC
    /// The interceptors a traced chain runs, in order, with their names in traces.
    struct InterceptorLinks<Interceptor: Sendable>: Sendable {
        let interceptors: [Interceptor]
        let names: [String]

        init(_ interceptors: [Interceptor]) {
            self.interceptors = interceptors
            names = interceptors.map(handlerName)
        }

        var count: Int { interceptors.count }
    }
#endif

#if GRPC
    import GRPCCore

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    extension ConditionalInterceptor {
        /// The RPCs it applies to. gRPC keeps them in a property of its own (not public), read here; `nil` on a
        /// version of gRPC that keeps them otherwise.
        var subject: Subject? {
            Mirror(reflecting: self).children.first { $0.label == "subject" }?.value as? Subject
        }
    }
#endif
