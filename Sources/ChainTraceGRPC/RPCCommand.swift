#if GRPC
    public import ChainTrace
    public import GRPCCore

    /// An RPC as ChainTrace sees it: the command a traced gRPC server's (or client's) interceptors handle.
    ///
    /// Its kind is the method's fully qualified name — `echo.Echo/Get` — so reports group calls by method. Its id is
    /// the `x-request-id` metadata value when the caller sent one, else none (`diff` then pairs calls by their
    /// place). Its payload, recorded only when the recorder captures payloads, is the method, the peer and the
    /// request's metadata less the keys that carry credentials (``RPCCommand/redactedMetadataKeys``); messages are
    /// never read.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    public struct RPCCommand: TracedCommand, Sendable {
        /// The method called.
        public let method: MethodDescriptor
        /// The request's metadata.
        public let metadata: Metadata
        /// The other side: the client for a server's RPC, the server for a client's.
        public let remotePeer: String
        /// `method`'s fully qualified name, made once.
        private let kind: String

        /// The RPC of `method` with request `metadata` from (or to) `remotePeer`.
        public init(method: MethodDescriptor, metadata: Metadata, remotePeer: String) {
            self.init(method: method, metadata: metadata, remotePeer: remotePeer, kind: method.fullyQualifiedMethod)
        }

        /// The RPC of `method`, whose fully qualified name is `kind` (``MethodNames/method``).
        init(method: MethodDescriptor, metadata: Metadata, remotePeer: String, kind: String) {
            self.method = method
            self.metadata = metadata
            self.remotePeer = remotePeer
            self.kind = kind
        }

        /// Metadata keys never recorded in a payload, whatever the recorder captures: credentials and cookies.
        public static var redactedMetadataKeys: Set<String> {
            ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "grpc-trace-bin"]
        }

        /// `echo.Echo/Get`: the method's fully qualified name.
        public var commandKind: String { kind }

        /// The `x-request-id` metadata value, if the request carries one.
        public var commandID: String? {
            metadata[stringValues: "x-request-id"].first(where: { _ in true })
        }

        /// The method, the peer and the metadata (less ``redactedMetadataKeys``; binary values in base64) as JSON.
        public var commandPayload: JSONValue? {
            var fields: [String: JSONValue] = [:]
            for (key, value) in metadata {
                let key = key.lowercased()
                guard !Self.redactedMetadataKeys.contains(key) else { continue }
                let text = value.encoded()
                if case .string(let earlier) = fields[key] {
                    fields[key] = .string(earlier + ", " + text)
                } else {
                    fields[key] = .string(text)
                }
            }
            return .object([
                "method": .string(kind),
                "peer": .string(remotePeer),
                "metadata": .object(fields),
            ])
        }
    }
#endif
