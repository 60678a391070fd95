import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

/// `reinterpretingSoleStoredProperty` against the property read as it is: closures of its own, kept in structs of
/// one property as a library keeps them, read back and called.
@Suite("A struct's one stored property read as a struct of the caller's")
struct SoleStoredPropertyTests {
    struct Kept {
        private let predicate: @Sendable (Int, String) -> Bool
        init(_ predicate: @escaping @Sendable (Int, String) -> Bool) { self.predicate = predicate }
        func applies(_ number: Int, _ text: String) -> Bool { predicate(number, text) }
    }
    enum Outer<Element> {
        struct Kept {
            private let predicate: @Sendable (Int, String) -> Bool
            init(_ predicate: @escaping @Sendable (Int, String) -> Bool) { self.predicate = predicate }
            func applies(_ number: Int, _ text: String) -> Bool { predicate(number, text) }
        }
    }
    struct Box { let test: @Sendable (Int, String) -> Bool }
    struct TwoProperties {
        let predicate: @Sendable (Int, String) -> Bool
        let other: Int
    }
    struct OtherType { let predicate: @Sendable (Int) -> Bool }
    final class InClass: Sendable { let predicate: @Sendable (Int, String) -> Bool = { _, _ in true } }

    @Test(arguments: SeededGenerator.seeds(20))
    func closuresReadBackAnswerAsTheirProperty(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let threshold = Int.random(in: -50...50, using: &random)
        let suffix = String(Character(UnicodeScalar(UInt8.random(in: 97...122, using: &random))))
        let captured: @Sendable (Int, String) -> Bool = { $0 > threshold && $1.hasSuffix(suffix) }
        let plain = Kept(captured)
        let nested = Outer<[String]>.Kept(captured)
        let constant = Kept { _, _ in true }
        let read = reinterpretingSoleStoredProperty(plain, named: "predicate", as: Box.self)
        let readNested = reinterpretingSoleStoredProperty(nested, named: "predicate", as: Box.self)
        let readConstant = reinterpretingSoleStoredProperty(constant, named: "predicate", as: Box.self)
        for _ in 0..<50 {
            let number = Int.random(in: -100...100, using: &random)
            let text = "x" + String(Character(UnicodeScalar(UInt8.random(in: 97...122, using: &random))))
            #expect(read?.test(number, text) == plain.applies(number, text))
            #expect(readNested?.test(number, text) == nested.applies(number, text))
            #expect(readConstant?.test(number, text) == true)
        }
    }

    @Test func anythingElseIsNil() {
        let always: @Sendable (Int, String) -> Bool = { _, _ in true }
        #expect(reinterpretingSoleStoredProperty(Kept(always), named: "test", as: Box.self) == nil)
        #expect(
            reinterpretingSoleStoredProperty(
                TwoProperties(predicate: always, other: 1),
                named: "predicate",
                as: Box.self
            )
                == nil
        )
        #expect(
            reinterpretingSoleStoredProperty(OtherType(predicate: { _ in true }), named: "predicate", as: Box.self)
                == nil
        )
        #expect(reinterpretingSoleStoredProperty(InClass(), named: "predicate", as: Box.self) == nil)
        #expect(reinterpretingSoleStoredProperty(always, named: "predicate", as: Box.self) == nil)
    }
}
