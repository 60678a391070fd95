import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Chain changes as streams write them, generated in every form — insert before, after, at first or last, or into
/// a tree with `next` (the change's or the handler object's own); remove; register with a weight; deregister; link
/// to a name or to `null` — read as exactly the change written, whichever line of the stream they are on and whatever
/// order their members come in; a change naming no known kind, missing what its kind needs, giving two places (the
/// handler's own `next` is one), a misspelt or misplaced member, or a name that is not a string, is an error at that
/// line — never silently read some other way.
@Suite("Chain changes decode as written")
struct ChainChangeDecodingTests {
    static func line(_ members: [(String, String)], _ random: inout SeededGenerator) -> String {
        "{"
            + members.shuffled(using: &random).map { #""\#($0.0)":\#($0.1)"# }.joined(
                separator: random.pick([",", ", "])
            ) + "}"
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func everyFormReadsAsTheChangeWritten(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let name = "H\(Int.random(in: 0...99, using: &random))"
        let anchor = "A\(Int.random(in: 0...99, using: &random))"
        let weight = Int.random(in: -5...50, using: &random)
        let handler = #"{"name":"\#(name)","accepts":{"kind":["K"]}}"#
        let (members, check): ([(String, String)], (ChainChange) -> Bool) =
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                (
                    [("change", #""insert""#), ("handler", handler), ("before", #""\#(anchor)""#)],
                    { if case .insert(let made, .before(anchor)) = $0 { made.name == name } else { false } }
                )
            case 1:
                (
                    [("change", #""insert""#), ("handler", handler), ("after", #""\#(anchor)""#)],
                    { if case .insert(let made, .after(anchor)) = $0 { made.name == name } else { false } }
                )
            case 2:
                (
                    [("change", #""insert""#), ("handler", handler), ("at", #""first""#)],
                    { if case .insert(let made, .first) = $0 { made.name == name } else { false } }
                )
            case 3:
                (
                    [("change", #""insert""#), ("handler", handler)],
                    { if case .insert(let made, .last) = $0 { made.name == name } else { false } }
                )
            case 4:
                (
                    [("change", #""insert""#), ("handler", handler), ("next", #""\#(anchor)""#)],
                    { if case .add(let made, anchor?) = $0 { made.name == name } else { false } }
                )
            case 5: ([("change", #""remove""#), ("handler", #""\#(name)""#)], { $0 == .remove(name) })
            case 8:
                (
                    [("change", #""insert""#), ("handler", #"{"name":"\#(name)","next":"\#(anchor)"}"#)],
                    // The handler's own "next", as a chain definition writes it: its place.
                    { if case .add(let made, anchor?) = $0 { made.name == name && made.next == nil } else { false } }
                )
            case 6:
                (
                    [
                        ("change", #""register""#), ("registry", #""\#(anchor)""#),
                        ("handler", #"{"name":"\#(name)","weight":\#(weight)}"#),
                    ],
                    {
                        if case .register(let made, anchor) = $0 {
                            made.name == name && made.weight == weight
                        } else {
                            false
                        }
                    }
                )
            case 7:
                (
                    [("change", #""deregister""#), ("registry", #""\#(anchor)""#), ("handler", #""\#(name)""#)],
                    { $0 == .deregister(name, registry: anchor) }
                )
            default:
                random.chance(0.5)
                    ? (
                        [("change", #""link""#), ("handler", #""\#(name)""#), ("next", #""\#(anchor)""#)],
                        { $0 == .link(name, next: anchor) }
                    )
                    : (
                        [("change", #""link""#), ("handler", #""\#(name)""#), ("next", "null")],
                        { $0 == .link(name, next: nil) }
                    )
            }
        let change = Self.line(members, &random)
        let before = (0..<Int.random(in: 0...2, using: &random)).map { _ in #"{"kind":"K","w":1}"# }
        let reader = CommandStreamReader(
            bytes: Array(((before + [change]).joined(separator: "\n") + "\n").utf8),
            name: "s.jsonl"
        )
        for _ in before { _ = try reader.next() }
        guard case (let line, .change(let read))? = try reader.next() else {
            Issue.record("seed \(seed): \(change) did not read as a change")
            return
        }
        #expect(line == before.count + 1, "seed \(seed)")
        #expect(check(read), "seed \(seed): \(change) read as \(read)")
    }

    @Test(arguments: [
        #"{"change":"rename","handler":"A"}"#, #"{"change":"remove"}"#, #"{"change":"insert","handler":"A"}"#,
        #"{"change":"register","handler":{"name":"M","weight":1}}"#, #"{"change":"link"}"#,
        #"{"change":"deregister","handler":"M"}"#,
        #"{"change":"insert","handler":{"name":"N"},"before":"A","after":"B"}"#,
        #"{"change":"insert","handler":{"name":"N"},"before":5}"#,
        #"{"change":"insert","handler":{"name":"N"},"befor":"A"}"#, #"{"change":"remove","handler":"A","next":"B"}"#,
        #"{"change":"insert","handler":{"name":"N","next":"B"},"at":"first"}"#,
        #"{"change":"insert","handler":{"name":"N","next":"B"},"next":"C"}"#,
        #"{"change":"insert","handler":{"name":"N","next":"B"},"before":"C"}"#,
    ])
    func anIncompleteOrUnknownChangeIsAnErrorAtItsLine(line: String) {
        let reader = CommandStreamReader(bytes: Array((#"{"kind":"K"}"# + "\n" + line + "\n").utf8), name: "s.jsonl")
        _ = try? reader.next()
        do {
            _ = try reader.next()
            Issue.record("\(line) was accepted")
        } catch {
            #expect(error.line == 2 && error.column >= 1, "\(error)")
        }
    }
}
