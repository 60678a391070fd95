import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

/// A list kept as a library keeps one, in private properties: a sentinel at each end, each link to the next.
private final class LinkedList {
    private var head: Link?
    private var tail: Link?
    private var count = 0
    /// Not a link: a property of another type, which a walk by this name must refuse.
    private var first: Int = 0

    init(values: [Int]) {
        let tail = Link(value: .max)
        var next = tail
        for value in values.reversed() {
            let link = Link(value: value)
            link.next = next
            next = link
        }
        let head = Link(value: .min)
        head.next = next
        self.head = head
        self.tail = tail
        count = values.count
    }

    /// The values from head to tail, walked in plain Swift.
    var values: [Int] {
        var values: [Int] = []
        var link = head
        while let current = link {
            values.append(current.value)
            link = current.next
        }
        return values
    }

    /// Makes the link before the tail point back at the head: the walk never reaches the tail.
    func makeCycle() {
        var link = head
        while let current = link, current.next !== tail { link = current.next }
        link?.next = head
    }

    /// Undoes `makeCycle`'s loop of strong references, so the list and its links are freed.
    func breakCycle() {
        head?.next = nil
    }
}

private final class Link {
    let value: Int
    var next: Link?
    /// Not a link: refused as one.
    var label = "link"

    init(value: Int) {
        self.value = value
    }
}

/// `ReflectedLinks` against a plain walk of the same list; and refusing, rather than guessing, whenever the
/// properties it is told to follow are not there, not links, or do not lead to the last object.
@Suite("Reflected links against a plain walk")
struct ReflectedLinksTests {
    /// A `LinkedList`'s links, found by their names as a NIO pipeline's are.
    fileprivate static let links = ReflectedLinks<LinkedList, Link>(first: "head", last: "tail", next: "next")

    /// A list of up to 40 values drawn from `random`, and the values.
    fileprivate static func drawnList(using random: inout SeededGenerator) -> (values: [Int], list: LinkedList) {
        let count = Int.random(in: 0...40, using: &random)
        let values = (0..<count).map { _ in Int.random(in: -1000...1000, using: &random) }
        return (values, LinkedList(values: values))
    }

    @Test(arguments: SeededGenerator.seeds(50))
    func itWalksWhatPlainSwiftWalks(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (values, list) = Self.drawnList(using: &random)
        let links = Self.links
        #expect(links.isFound)
        let walked = try #require(links.list(in: list, limit: 100))
        #expect(walked.map(\.value) == list.values, "seed \(seed)")
        #expect(walked.map(\.value) == [.min] + values + [.max], "seed \(seed)")
        // One object short of the list: refused, not cut.
        #expect(links.list(in: list, limit: walked.count - 1) == nil)
    }

    @Test(arguments: SeededGenerator.seeds(50))
    func itFindsWhatTheListHolds(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (values, list) = Self.drawnList(using: &random)
        let links = Self.links
        let walked = try #require(links.list(in: list, limit: 100))
        // A value the list holds (a sentinel's, at either end, included), or most likely one it does not.
        let held = [.min] + values + [.max]
        let sought =
            random.chance(0.5)
            ? held[Int.random(in: 0..<held.count, using: &random)] : Int.random(in: -1100...1100, using: &random)
        var seen: [Int] = []
        let found = links.contains(in: list, limit: 100) { link in
            seen.append(link.value)
            return link.value == sought
        }
        #expect(found == walked.contains { $0.value == sought }, "seed \(seed)")
        // From the first on, up to the first match.
        let upTo = walked.firstIndex { $0.value == sought }.map { $0 + 1 } ?? walked.count
        #expect(seen == walked.prefix(upTo).map(\.value), "seed \(seed)")
        // Every object within the limit, or no answer.
        #expect(links.contains(in: list, limit: walked.count) { _ in false } == false)
        #expect(links.contains(in: list, limit: walked.count - 1) { _ in false } == nil)
    }

    @Test("a property missing, or of another type, is refused")
    func wrongLayouts() {
        let list = LinkedList(values: [1, 2, 3])
        for links in [
            ReflectedLinks<LinkedList, Link>(first: "front", last: "tail", next: "next"),
            ReflectedLinks<LinkedList, Link>(first: "head", last: "back", next: "next"),
            ReflectedLinks<LinkedList, Link>(first: "head", last: "tail", next: "following"),
            ReflectedLinks<LinkedList, Link>(first: "first", last: "tail", next: "next"),
            ReflectedLinks<LinkedList, Link>(first: "head", last: "tail", next: "label"),
            ReflectedLinks<LinkedList, Link>(first: "head", last: "tail", next: "value"),
        ] {
            #expect(!links.isFound)
            #expect(links.list(in: list, limit: 100) == nil)
            #expect(links.contains(in: list, limit: 100) { _ in true } == nil)
        }
    }

    @Test("links that never reach the last object are refused within the limit")
    func cycle() {
        let list = LinkedList(values: [1, 2, 3])
        list.makeCycle()
        defer { list.breakCycle() }
        let links = Self.links
        #expect(links.list(in: list, limit: 1_000) == nil)
        #expect(links.contains(in: list, limit: 1_000) { $0.value == 7 } == nil)
        #expect(links.contains(in: list, limit: 1_000) { $0.value == 2 } == true)
    }
}
