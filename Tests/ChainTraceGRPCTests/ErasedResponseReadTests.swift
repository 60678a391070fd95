#if GRPC
    @testable import ChainTraceGRPC
    import ChainTraceTestSupport
    import GRPCCore
    import Testing

    /// Message types of every shape a service answers with: none of them may change how a hop reads a response's
    /// refusal through `StreamingServerResponse<Never>` (or the client's), the fast path's `readThroughSameLayout`.
    struct EmptyMessage: Sendable {}
    struct WideMessage: Sendable {
        var numbers: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
        var text: String
    }
    final class ReferenceMessage: Sendable {
        let text: String
        init(text: String) { self.text = text }
    }
    enum ChoiceMessage: Sendable {
        case none
        case text(String)
        case pair(Int64, Double)
    }

    @Suite("A hop reads a response's refusal without its message type's metadata, as the response itself says")
    struct ErasedResponseReadTests {
        static let codes: [RPCError.Code] = [
            .cancelled, .unknown, .invalidArgument, .deadlineExceeded, .notFound, .alreadyExists, .permissionDenied,
            .resourceExhausted, .failedPrecondition, .aborted, .outOfRange, .unimplemented, .internalError,
            .unavailable, .dataLoss, .unauthenticated,
        ]

        struct Cause: Error, CustomStringConvertible {
            let number: UInt64
            var description: String { "cause \(number)" }
        }

        static func metadata(_ random: inout SeededGenerator) -> Metadata {
            var metadata = Metadata()
            for index in 0..<Int.random(in: 0...3, using: &random) {
                metadata.addString("v\(random.next() % 1000)", forKey: "key-\(index)")
            }
            return metadata
        }

        static func error(_ random: inout SeededGenerator) -> RPCError {
            let message = Bool.random(using: &random) ? "" : "refused \(random.next() % 10_000)"
            let cause: (any Error)? = Bool.random(using: &random) ? Cause(number: random.next()) : nil
            return RPCError(
                code: codes.randomElement(using: &random)!,
                message: message,
                metadata: metadata(&random),
                cause: cause
            )
        }

        /// What matters of a refusal, comparable.
        static func summary(_ error: RPCError?) -> String {
            guard let error else { return "accepted" }
            return "\(error.code) \(error.message) \(error.metadata) \(error.cause.map { "\($0)" } ?? "-")"
        }

        /// Server responses of `Output`, accepted (one message, or a stream) or refused, read both ways.
        static func checkServer<Output: Sendable>(
            _ make: @escaping @Sendable (UInt64) -> Output,
            _ random: inout SeededGenerator,
            seed: UInt64
        ) {
            #expect(StreamingServerResponse<Output>.readsErased, "\(Output.self) no longer lays out as Never's")
            for _ in 0..<50 {
                let value = make(random.next())
                var response: StreamingServerResponse<Output> =
                    switch random.next() % 3 {
                    case 0: StreamingServerResponse(error: error(&random))
                    case 1:
                        StreamingServerResponse(single: ServerResponse(message: value, metadata: metadata(&random)))
                    default:
                        StreamingServerResponse(of: Output.self, metadata: metadata(&random)) { writer in
                            try await writer.write(value)
                            return [:]
                        }
                    }
                let erased = refusal(in: &response, readErased: true)
                let typed = refusal(in: &response, readErased: false)
                #expect(summary(erased) == summary(typed), "seed \(seed), \(Output.self)")
                #expect(summary(typed) == summary(response.refusal), "seed \(seed): reading changed the response")
            }
        }

        /// Client responses of `Output`, their head accepted or refused, read both ways.
        static func checkClient<Output: Sendable>(
            _ make: @escaping @Sendable (UInt64) -> Output,
            _ random: inout SeededGenerator,
            seed: UInt64
        ) {
            #expect(StreamingClientResponse<Output>.readsErased, "\(Output.self) no longer lays out as Never's")
            for _ in 0..<50 {
                let value = make(random.next())
                var response: StreamingClientResponse<Output>
                if Bool.random(using: &random) {
                    response = StreamingClientResponse(of: Output.self, error: error(&random))
                } else {
                    let parts = AsyncThrowingStream<StreamingClientResponse<Output>.Contents.BodyPart, any Error> {
                        $0.yield(.message(value))
                        $0.finish()
                    }
                    response = StreamingClientResponse(
                        of: Output.self,
                        metadata: metadata(&random),
                        bodyParts: RPCAsyncSequence(wrapping: parts)
                    )
                }
                let erased = refusal(in: &response, readErased: true)
                let typed = refusal(in: &response, readErased: false)
                #expect(summary(erased) == summary(typed), "seed \(seed), \(Output.self)")
            }
        }

        static func checkAll(_ random: inout SeededGenerator, seed: UInt64, server: Bool) {
            func check<Output: Sendable>(_ make: @escaping @Sendable (UInt64) -> Output) {
                if server { checkServer(make, &random, seed: seed) } else { checkClient(make, &random, seed: seed) }
            }
            check { "message \($0)" }
            check { Int8(truncatingIfNeeded: $0) }
            check { $0 }
            check { $0 % 2 == 0 }
            check { Double($0 % 1000) }
            check { _ in EmptyMessage() }
            check {
                WideMessage(numbers: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, Int(truncatingIfNeeded: $0)), text: "\($0)")
            }
            check { ReferenceMessage(text: "\($0)") }
            check {
                $0 % 3 == 0
                    ? ChoiceMessage.none : $0 % 3 == 1 ? .text("\($0)") : .pair(Int64(truncatingIfNeeded: $0), 0.5)
            }
            check { $0 % 2 == 0 ? nil : "\($0)" as String? }
            check { Array(repeating: $0, count: Int($0 % 5)) }
        }

        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        @Test(arguments: SeededGenerator.seeds(8))
        func serverResponsesReadTheSameErased(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            Self.checkAll(&random, seed: seed, server: true)
        }

        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        @Test(arguments: SeededGenerator.seeds(8))
        func clientResponsesReadTheSameErased(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            Self.checkAll(&random, seed: seed, server: false)
        }
    }
#endif
