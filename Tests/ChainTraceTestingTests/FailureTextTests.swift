import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Foundation
import Testing

/// A failed hop records both the message a user reads (`LocalizedError`'s `errorDescription`, a
/// `CustomStringConvertible`'s `description`) and the error's type (with the case, for an enum), however the
/// failure arrives — thrown through a `Chain`, thrown in an instrumented hop, or returned and judged failed —
/// and `expectFailed(…, error:)` matches either.
@Suite("What a failed hop records about its error")
struct FailureTextTests {
    enum AuthError: LocalizedError {
        case usernameAlreadyUsed(String)
        case tooLong(Int)
        var errorDescription: String? {
            switch self {
            case .usernameAlreadyUsed(let text): text
            case .tooLong(let limit): "longer than \(limit)"
            }
        }
    }

    enum PlainError: Error {
        case jammed
        case bent(Int)
    }

    struct DescribedError: Error, CustomStringConvertible { var description: String }

    struct BareError: Error { var code: Int }

    final class ClassError: LocalizedError, @unchecked Sendable {
        let text: String
        init(text: String) { self.text = text }
        var errorDescription: String? { text }
    }

    /// A random error of one of the shapes, with the texts a test may match it by.
    static func error(_ random: inout SeededGenerator) -> (error: any Error, matches: [String]) {
        let message = "msg \(random.next() % 10_000) " + random.pick(["is taken", "went wrong", "ünïcode ✓", "a (b)"])
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return (AuthError.usernameAlreadyUsed(message), [message, "AuthError", "usernameAlreadyUsed"])
        case 1:
            let limit = Int.random(in: 0...500, using: &random)
            return (AuthError.tooLong(limit), ["longer than \(limit)", "AuthError.tooLong"])
        case 2: return (PlainError.jammed, ["PlainError.jammed", "jammed", "PlainError"])
        case 3:
            let size = Int.random(in: 0...9, using: &random)
            return (PlainError.bent(size), ["PlainError.bent(\(size))"])
        case 4: return (DescribedError(description: message), [message, "DescribedError"])
        case 5: return (ClassError(text: message), [message, "ClassError"])
        default: return (BareError(code: 3), ["BareError(code: 3)"])
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func messageAndTypeAreRecordedAndEitherMatches(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let (error, matches) = Self.error(&random)
        let box = ErrorBox(error)
        let route = Int.random(in: 0..<4, using: &random)
        let chainName = "failures-\(seed)"
        let traces: [Trace]
        switch route {
        case 0:
            let chain = try Chain<Int, Int>(
                chainName,
                handlers: [
                    Handler("First") { _ in .pass },
                    Handler("Failing") { _ in throw box.error },
                ]
            )
            traces = captureTraces { _ = try? chain.send(1) }
        case 1:
            traces = captureTraces {
                _ = try? traceHop("First", command: 1, chain: chainName) {
                    try traceHop("Failing", command: 1, chain: chainName) { () throws -> Int in throw box.error }
                }
            }
        case 2:
            // A handler that returns its error, as the sign-up flow's do, judged failed.
            traces = captureTraces {
                _ = traceHop("First", command: 1, chain: chainName) {
                    traceHop("Failing", command: 1, chain: chainName, decide: { $0 == nil ? nil : .failed }) {
                        box.error
                    }
                }
            }
        default:
            let chain = try AsyncChain<Int, Int>(
                chainName,
                handlers: [
                    AsyncHandler("First") { _ in .pass },
                    AsyncHandler("Failing") { _ in throw box.error },
                ]
            )
            traces = await captureTraces { _ = try? await chain.send(1) }
        }
        let trace = try #require(traces.first, "seed \(seed): route \(route) recorded nothing")
        for text in matches {
            #expect(
                verifyFailed(trace, at: "Failing", error: text) == nil,
                "seed \(seed), route \(route): \(trace.outcome) does not match \"\(text)\""
            )
        }
        #expect(verifyFailed(trace, at: "Failing", error: "not in any text") != nil, "seed \(seed)")
        #expect(trace.hops.last?.reason == FailureText.of(error), "seed \(seed), route \(route)")
    }

    @Test func theSignUpArticlesErrorReadsAsItsMessage() {
        #expect(
            FailureText.of(AuthError.usernameAlreadyUsed("Username is already in use."))
                == "Username is already in use. (AuthError.usernameAlreadyUsed)"
        )
        #expect(FailureText.of(PlainError.jammed) == "PlainError.jammed")
        #expect(FailureText.of(DescribedError(description: "window is gone")) == "window is gone (DescribedError)")
        #expect(FailureText.of("just a value") == "just a value")
    }
}

/// Carries an error into `@Sendable` handler closures.
final class ErrorBox: @unchecked Sendable {
    // Never mutated after init.
    let error: any Error
    init(_ error: any Error) { self.error = error }
}
