import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

/// The speed algorithms of ChainTraceFastPath — the name lookups, key cache, slots, command storage and hop
/// counters the decoders and profiles are built on — each against a plain Swift form of the same thing, on
/// generated inputs.
@Suite("Fast-path algorithms against plain Swift")
struct FastPathAlgorithmTests {
    /// Names that collide in ``NameBytes``' buckets on purpose (same length, first and last byte), with
    /// non-ASCII, empty and repeated ones.
    private static func names(_ random: inout SeededGenerator) -> [String] {
        let alphabet = Array("abcxyz_09é\"")
        return (0..<Int.random(in: 0...12, using: &random)).map { _ in
            if Bool.random(using: &random) { return "a" + String(alphabet.randomElement(using: &random)!) + "z" }
            return String(
                (0..<Int.random(in: 0...14, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            )
        }
    }

    /// A `NameIndex` finds each name at its first place, as a dictionary built the same way does, and nothing
    /// for any other bytes.
    @Test(arguments: SeededGenerator.seeds(60))
    func nameIndexFindsWhatADictionaryFinds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let names = Self.names(&random)
        let index = NameIndex(names)
        let plain = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let probes = names + Self.names(&random) + ["", "az", "a", "z"]
        for probe in probes {
            let found = Array(probe.utf8).withUnsafeBufferPointer { index.index(of: $0) }
            #expect(found == plain[probe], "seed \(seed), \(probe.debugDescription) in \(names)")
        }
    }

    /// `NameBytes.areDistinct` says a line's keys are all different exactly when a set of them is as large as the
    /// list, with keys that share buckets on purpose and empty ones.
    @Test(arguments: SeededGenerator.seeds(80))
    func namesAreDistinctExactlyWhenASetSaysSo(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let names = (0..<Int.random(in: 0...64, using: &random)).map { _ in
            Array(Self.names(&random).first ?? "a\(Int.random(in: 0...40, using: &random))z")
        }
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for name in names {
            bytes.append(contentsOf: Array(" \"".utf8))
            let start = bytes.count
            bytes.append(contentsOf: Array(String(name).utf8))
            ranges.append(start..<bytes.count)
        }
        let distinct = bytes.withUnsafeBufferPointer { buffer in
            ranges.withUnsafeBufferPointer {
                $0.baseAddress.map { NameBytes.areDistinct($0, count: ranges.count, in: buffer) } ?? true
            }
        }
        let plain = Set(ranges.map { Array(bytes[$0]) }).count == ranges.count
        #expect(distinct == plain, "seed \(seed): \(names.map { String($0) })")
    }

    /// Slots set, cleared and copied hold what an array of optionals does.
    @Test(arguments: SeededGenerator.seeds(40))
    func slotValuesHoldWhatAnArrayHolds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 0...9, using: &random)
        let owner = ObjectIdentifier(NameIndex([]))
        var slots = SlotValues<String>(owner: owner, count: count)
        var plain = [String?](repeating: nil, count: count)
        for _ in 0..<Int.random(in: 1...100, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where count > 0:
                let slot = Int.random(in: 0..<count, using: &random)
                let value = String(Int.random(in: -99...99, using: &random))
                slots.set(value, number: Double(value)!, at: slot)
                plain[slot] = value
            case 1:
                slots.clear()
                plain = [String?](repeating: nil, count: count)
            case 2:
                slots = slots.copy()
            default:
                break
            }
        }
        #expect(slots.owner == owner && slots.count == count)
        for slot in 0..<count {
            #expect(slots.value(slot) == plain[slot], "seed \(seed)")
            let number = slots.number(slot)
            #expect(plain[slot].map { number == Double($0)! } ?? number.isNaN, "seed \(seed)")
        }
    }

    /// The key cache answers, for each key of generated lines, exactly the member remembered for the same bytes
    /// at that position, or nothing; it never answers for other bytes, whatever their length or place in the line.
    @Test(arguments: SeededGenerator.seeds(60))
    func memberKeyCacheAnswersOnlyForTheKeyItRemembers(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let keys = ["id", "kind", "entry", "amountInCents", "a", "abcdefghijklm", "abcdefghijklmn", "zz", "é"]
        let cache = MemberKeyCache(placeholder: -1)
        var remembered: [Int: String] = [:]
        var ids: [String: Int] = [:]
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            let position = Int.random(in: 0..<(MemberKeyCache<Int>.positions + 2), using: &random)
            let key = keys.randomElement(using: &random)!
            let text = "\"" + key + "\":"
            // The key at a random place in a line, with bytes after it or not.
            let line =
                String(repeating: " ", count: Int.random(in: 0...3, using: &random)) + text
                + (Bool.random(using: &random) ? "1234567890" : "")
            let start = line.utf8.count - text.utf8.count - (line.hasSuffix("0") ? 10 : 0)
            let bytes = Array(line.utf8)
            var end = -1
            var id = -2
            let answer = bytes.withUnsafeBufferPointer {
                cache.member(at: position, in: $0, from: start, end: &end, id: &id)
            }
            let expected = remembered[position] == key ? keys.firstIndex(of: key) : nil
            #expect(
                answer == expected,
                "seed \(seed): \(key) at \(position), remembered \(remembered[position] ?? "-")"
            )
            if answer != nil {
                #expect(end == start + text.utf8.count)
                #expect(id == ids[key], "seed \(seed): \(key)'s id")
            }
            let remember = Bool.random(using: &random)
            if remember {
                let raw = Array(key.utf8)
                let recalled = Self.read(
                    key,
                    into: cache,
                    at: position,
                    colonFollows: true,
                    meaning: keys.firstIndex(of: key)!
                )
                #expect(recalled.member == keys.firstIndex(of: key)!)
                if raw.count <= MemberKeyCache<Int>.longestKey {
                    // The first time a key is read it gets the next id; afterwards always that one.
                    let expectedID = ids[key] ?? ids.count
                    #expect(recalled.id == expectedID, "seed \(seed): \(key)'s id")
                    ids[key] = expectedID
                } else {
                    #expect(recalled.id == -1, "seed \(seed): \(key) is too long for an id")
                }
                if position < MemberKeyCache<Int>.positions {
                    remembered[position] = raw.count <= MemberKeyCache<Int>.longestKey ? key : nil
                }
            }
        }
    }

    /// `key` read from a line that holds it (followed by its colon, or by a space and its colon) as a line
    /// decoder reads it: recalled from the cache, or given `meaning` and remembered.
    static func read<Member>(
        _ key: String,
        into cache: MemberKeyCache<Member>,
        at position: Int,
        colonFollows: Bool,
        meaning: Member
    ) -> (member: Member, id: Int) {
        let line = Array(("\"" + key + "\"" + (colonFollows ? ":" : " :")).utf8)
        return line.withUnsafeBufferPointer { bytes in
            let raw = RawKey(bytes: UnsafeBufferPointer(rebasing: bytes[1..<(1 + key.utf8.count)]))
            if let known = cache.recall(raw, in: bytes, from: 0, at: position, colonFollows: colonFollows) {
                return known
            }
            let id = cache.remember(raw, in: bytes, from: 0, as: meaning, at: position, colonFollows: colonFollows)
            return (meaning, id)
        }
    }

    /// `MemberKeyCache.lookUp` answers for a key exactly what reading it as a string and recalling it answers —
    /// member, id, and the position past its colon — and answers only where it may: generated keys of letters,
    /// spaces, quotes, backslashes, control bytes and non-ASCII, 0 to 18 bytes, with their colon right after them
    /// or not, anywhere in a line (often within 16 bytes of its end), against a cache that has read some of them.
    /// Where it may answer (a plain key of at most ``MemberKeyCache/longestKey`` bytes the cache has read, its
    /// colon next, 16 bytes of line from its quote), it must.
    @Test(arguments: SeededGenerator.seeds(60))
    func lookingUpAKeyAnswersWhatRecallingItAnswers(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let alphabet: [String] = ["a", "b", "z", "A", "0", "_", " ", "-", "é", "\\", "\"", "\u{01}", "\u{7F}"]
        let cache = MemberKeyCache(placeholder: "")
        var answered = 0
        // A few dozen keys, each read many times (the table keeps the first 64 distinct keys read).
        let keys = (0..<40).map { _ in
            (0..<Int.random(in: 0...18, using: &random)).map { _ in
                random.chance(0.95) ? random.pick(["a", "b", "z", "A", "0", "_"]) : random.pick(alphabet)
            }.joined()
        }
        for _ in 0..<600 {
            let key = random.pick(keys)
            let colonFollows = random.chance(0.8)
            let text = "\"" + key + "\"" + (colonFollows ? ":" : random.pick([" :", "x", ""]))
            let before = String(repeating: " ", count: Int.random(in: 0...3, using: &random))
            let after = random.chance(0.5) ? "" : String(repeating: "1", count: Int.random(in: 0...20, using: &random))
            let line = Array((before + text + after).utf8)
            let start = before.utf8.count
            let position = Int.random(in: 0..<(MemberKeyCache<String>.positions + 2), using: &random)
            var end = -1
            var id = -2
            let answer = line.withUnsafeBufferPointer {
                cache.lookUp(at: position, in: $0, from: start, end: &end, id: &id)
            }
            // What a decoder reading the key in full finds.
            let raw = Array(key.utf8)
            let plain = raw.allSatisfy {
                $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
            }
            let recalled: (member: String, id: Int)? =
                plain
                ? line.withUnsafeBufferPointer { bytes in
                    cache.recall(
                        RawKey(bytes: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(start + 1 + raw.count)])),
                        in: bytes,
                        from: start,
                        at: position,
                        colonFollows: colonFollows
                    )
                } : nil
            let mayAnswer =
                plain && colonFollows && raw.count <= MemberKeyCache<String>.longestKey && start + 16 <= line.count
            if let answer {
                answered += 1
                #expect(mayAnswer && answer == recalled?.member && id == recalled?.id, "seed \(seed): \(text)")
                #expect(end == start + raw.count + 3, "seed \(seed): \(text)")
                if position < MemberKeyCache<String>.positions {
                    var again = -1
                    var againID = -2
                    let remembered = line.withUnsafeBufferPointer {
                        cache.member(at: position, in: $0, from: start, end: &again, id: &againID)
                    }
                    #expect(
                        remembered == answer && again == end && againID == id,
                        "seed \(seed): \(text) remembered at \(position)"
                    )
                }
            } else {
                #expect(!(mayAnswer && recalled != nil), "seed \(seed): \(text) not looked up")
            }
            // Now and then the key is read and remembered, as a decoder does with a key it did not know.
            if plain, recalled == nil, random.chance(0.6) {
                _ = Self.read(key, into: cache, at: position, colonFollows: colonFollows, meaning: key)
            }
        }
        #expect(answered > 30, "seed \(seed): \(answered) keys looked up")
    }

    /// Keys get ids one by one up to ``MemberKeyCache/identifiedKeys`` distinct ones, each key always the same id
    /// and no two keys the same one; past the limit a new key has none (its meaning is still answered), and the
    /// ones with ids keep them.
    @Test(arguments: SeededGenerator.seeds(20))
    func memberKeyCacheGivesEachDistinctKeyItsOwnID(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let cache = MemberKeyCache(placeholder: "")
        var ids: [String: Int] = [:]
        let letters = Array("abcdefghijklmnopqrstuvwxyz_0123456789")
        for _ in 0..<400 {
            // Short keys of similar text, so that many share their first or last word.
            let count = Int.random(in: 1...MemberKeyCache<String>.longestKey, using: &random)
            let key =
                String((0..<count).map { _ in letters[Int.random(in: 0..<3, using: &random) * 12] })
                + String(letters.randomElement(using: &random)!)
            let raw = Array(key.utf8)
            let colonFollows = Int.random(in: 0..<10, using: &random) > 0
            let position = Int.random(in: 0..<20, using: &random)
            let recalled = Self.read(key, into: cache, at: position, colonFollows: colonFollows, meaning: key)
            #expect(recalled.member == key, "seed \(seed)")
            guard colonFollows, raw.count <= MemberKeyCache<String>.longestKey else {
                #expect(recalled.id == -1, "seed \(seed): \(key)")
                continue
            }
            if let known = ids[key] {
                #expect(recalled.id == known, "seed \(seed): \(key) keeps its id")
            } else if ids.count < MemberKeyCache<String>.identifiedKeys {
                #expect(recalled.id == ids.count, "seed \(seed): \(key) gets the next id")
                ids[key] = recalled.id
            } else {
                #expect(recalled.id == -1, "seed \(seed): \(key) comes after the ids ran out")
            }
        }
        #expect(Set(ids.values).count == ids.count)
    }

    /// Hops counted by `HopCounters`, copied part way, give the counts, links and pending self times a plain
    /// count of the same hops gives — with a few handlers, and with more than a node's scan covers
    /// (`HopCounters.scannedLinks`), where a node's links are looked up by its index of them.
    @Test(arguments: SeededGenerator.seeds(60))
    func hopCountersCountWhatAPlainCountCounts(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var counters = HopCounters()
        let handlers =
            random.chance(0.4)
            ? Int.random(in: HopCounters.scannedLinks...(3 * HopCounters.scannedLinks), using: &random)
            : Int.random(in: 1...12, using: &random)
        for _ in 0..<handlers { counters.addHandler() }
        var rows = [HopCounters.Row](repeating: HopCounters.Row(), count: handlers)
        var links: [[Int]: Int] = [:]
        var pending: [[Int]: UInt32] = [:]
        var overflowed: [UInt64] = []
        for _ in 0..<Int.random(in: 1...(handlers > 12 ? 400 : 40), using: &random) {
            var previous = 0
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let handler = Int.random(in: 0..<handlers, using: &random)
                let decision = [HopCounters.CountedDecision.accepted, .passed, .continued, .failed].randomElement(
                    using: &random
                )!
                let selfTime = Bool.random(using: &random) ? UInt64.random(in: 0..<300, using: &random) : .max - 5
                let inclusive = UInt64.random(in: 0...UInt64.max / 2, using: &random)
                if !counters.add(decision, selfNanoseconds: selfTime, inclusiveNanoseconds: inclusive, at: handler) {
                    overflowed.append(selfTime)
                }
                counters.countLink(from: previous, to: handler)
                rows[handler].seen += 1
                switch decision {
                case .accepted: rows[handler].accepted += 1
                case .passed: rows[handler].passed += 1
                case .continued: rows[handler].continued += 1
                case .failed: rows[handler].failed += 1
                }
                let (selfSum, selfOverflow) = rows[handler].totalSelfNanoseconds.addingReportingOverflow(selfTime)
                rows[handler].totalSelfNanoseconds = selfOverflow ? .max : selfSum
                let (sum, overflow) = rows[handler].totalInclusiveNanoseconds.addingReportingOverflow(inclusive)
                rows[handler].totalInclusiveNanoseconds = overflow ? .max : sum
                if selfTime < UInt64(HopCounters.exactSelfTimeLimit) {
                    pending[[handler, Int(selfTime)], default: 0] += 1
                }
                links[[previous, handler], default: 0] += 1
                previous = handler + 1
            }
            if Int.random(in: 0..<5, using: &random) == 0 { counters = counters.copy() }
        }
        #expect(overflowed.allSatisfy { $0 >= UInt64(HopCounters.exactSelfTimeLimit) }, "seed \(seed)")
        for handler in 0..<handlers {
            let row = counters.row(handler)
            let plain = rows[handler]
            #expect(
                [row.seen, row.accepted, row.passed, row.continued, row.failed]
                    == [plain.seen, plain.accepted, plain.passed, plain.continued, plain.failed],
                "seed \(seed)"
            )
            #expect(row.totalSelfNanoseconds == plain.totalSelfNanoseconds, "seed \(seed)")
            #expect(row.totalInclusiveNanoseconds == plain.totalInclusiveNanoseconds, "seed \(seed)")
            counters.withPendingSelfTimes(of: handler) { counts in
                for (value, count) in counts.enumerated() {
                    #expect(count == pending[[handler, value], default: 0], "seed \(seed)")
                }
            }
        }
        #expect(counters.pendingCount == Int(pending.values.reduce(0, +)))
        var counted: [[Int]: Int] = [:]
        counters.forEachLink { from, to, count in counted[[from, to]] = count }
        #expect(counted == links, "seed \(seed)")
        // Merged into counters of their own (as the profiles of a log's parts are), link by link with its count.
        let merged = HopCounters()
        for _ in 0..<handlers { merged.addHandler() }
        let times = Int.random(in: 1...2, using: &random)
        for _ in 0..<times {
            counters.forEachLink { from, to, count in merged.addLink(from: from, to: to, count: count) }
        }
        var mergedCounts: [[Int]: Int] = [:]
        merged.forEachLink { from, to, count in mergedCounts[[from, to]] = count }
        #expect(mergedCounts == links.mapValues { $0 * times }, "seed \(seed)")
        counters.clearPendingSelfTimes()
        #expect(counters.pendingCount == 0)
    }

    /// A command's storage keeps the line it is given, whatever came before, and a copy with changes keeps the
    /// rest, as plain stored properties would.
    @Test(arguments: SeededGenerator.seeds(40))
    func commandStorageKeepsWhatItIsGiven(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let storage = CommandStorage<[Int]>(kind: "Command", id: nil, entry: nil, fields: [], slots: nil)
        var line: [UInt8] = []
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            line = (0..<Int.random(in: 0...200, using: &random)).map { _ in
                UInt8.random(in: 0x20...0x7E, using: &random)
            }
            line.withUnsafeBufferPointer(storage.setLine)
            #expect(storage.withLine(Array.init) == line, "seed \(seed)")
            if line.count >= 2 {
                let range = 1..<Int.random(in: 1...line.count, using: &random)
                #expect(storage.lineText(range) == String(decoding: line[range], as: UTF8.self))
            }
        }
        storage.fields = [1, 2]
        storage.idInLine = 0..<min(1, line.count)
        let copy = storage.with(kind: "Tap", entry: .some("B"))
        #expect(copy.kind == "Tap" && copy.entry == "B" && copy.id == nil && copy.fields == [1, 2])
        #expect(copy.idInLine == storage.idInLine && copy.withLine(Array.init) == line)
        let renamed = storage.with(id: .some("x"))
        #expect(renamed.id == "x" && renamed.idInLine == nil && renamed.kind == "Command")
    }

    /// `UTF8Validation` judges generated byte sequences — valid text, and text with bytes next to every
    /// boundary of the encoding put in — exactly as `String(validating:)` does.
    @Test(arguments: SeededGenerator.seeds(40))
    func utf8ValidationJudgesAsTheStandardLibraryDoes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let edges: [UInt8] = [
            0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
            0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        let scalars: [Unicode.Scalar] = [
            "a", "é", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "日", "😀",
        ]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                bytes += Array(String(scalars.randomElement(using: &random)!).utf8)
            }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let byte =
                    Bool.random(using: &random)
                    ? edges.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                if Bool.random(using: &random), !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = byte
                } else {
                    bytes.insert(byte, at: Int.random(in: 0...bytes.count, using: &random))
                }
            }
            if Int.random(in: 0..<4, using: &random) == 0, !bytes.isEmpty {
                bytes.removeLast(Int.random(in: 1...min(3, bytes.count), using: &random))
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) } == expected, "seed \(seed): \(bytes)")
        }
    }

    /// `JSONEscape.skip` steps over generated escapes — every one-letter escape, `\u` escapes near the
    /// surrogate ranges, pairs and broken pairs, bad hex digits, escapes cut short — exactly where, and exactly
    /// when, `JSONEscape.read` reads them.
    @Test(arguments: SeededGenerator.seeds(40))
    func skippingAnEscapeAgreesWithReadingIt(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let hexes = [
            "0041", "00e9", "D7FF", "d800", "DBFF", "dc00", "DFFF", "E000", "ffff", "0G00", "12", "zzzz", "D83D",
            "de00",
        ]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                text += random.pick([
                    #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\x"#, #"\"#, "a", "é",
                ])
                if random.chance(0.6) { text += #"\u"# + random.pick(hexes) }
            }
            var bytes = Array(text.utf8)
            if random.chance(0.3), !bytes.isEmpty {
                bytes.removeLast(Int.random(in: 1...min(4, bytes.count), using: &random))
            }
            guard let backslash = bytes.firstIndex(of: UInt8(ascii: "\\")) else { continue }
            bytes.withUnsafeBufferPointer { buffer in
                var readIndex = backslash + 1
                var skipIndex = backslash + 1
                let read = JSONEscape.read(buffer, at: &readIndex, emit: { _ in }) == nil
                let skipped = JSONEscape.skip(buffer, at: &skipIndex)
                #expect(skipped == read, "seed \(seed): \(text)")
                if read { #expect(skipIndex == readIndex, "seed \(seed): \(text)") }
            }
        }
    }

    /// `JSONEscape.read` on `\u` escapes whose four "digits" are any bytes — hex digits of both cases and the
    /// bytes beside their ranges (`/ : @ G ` g`, 0x80, 0xFF) most often, every value sometimes, in every position;
    /// high surrogates followed by a second escape or by anything else; escapes cut short — against a plain
    /// reading of the same bytes with the standard library: the same character, or the same failure at the same
    /// place, and the same end; `skip` agreeing.
    @Test(arguments: SeededGenerator.seeds(40))
    func unicodeEscapesReadAsAPlainReadingReadsThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let edges: [UInt8] = Array("0123456789abcdefABCDEF/:@G`g".utf8) + [0x00, 0x7F, 0x80, 0xB0, 0xC6, 0xFF]
        func digits(_ random: inout SeededGenerator) -> [UInt8] {
            (0..<4).map { _ in random.chance(0.9) ? random.pick(edges) : UInt8.random(in: 0...255, using: &random) }
        }
        for _ in 0..<4_000 {
            var bytes: [UInt8] = Array(#"\u"#.utf8) + digits(&random)
            if random.chance(0.3) {
                // A high surrogate, then (mostly) a second escape.
                bytes = Array(#"\u"#.utf8) + Array(random.pick(["D800", "dbff", "D83D", "DAbc"]).utf8)
                if random.chance(0.8) {
                    bytes +=
                        Array(#"\u"#.utf8)
                        + (random.chance(0.5)
                            ? Array(random.pick(["DC00", "dfff", "DE00", "E000", "0041", "D800"]).utf8)
                            : digits(&random))
                }
            }
            if random.chance(0.2) { bytes.removeLast(Int.random(in: 1...min(5, bytes.count - 2), using: &random)) }
            if random.chance(0.5) { bytes += Array("xyz".utf8) }
            let expected = Self.plainUnicodeEscape(bytes, from: 2)
            bytes.withUnsafeBufferPointer { buffer in
                var index = 1
                var emitted: [UInt8] = []
                let failure = JSONEscape.read(buffer, at: &index, emit: { emitted.append($0) })
                var skipIndex = 1
                let skipped = JSONEscape.skip(buffer, at: &skipIndex)
                switch expected {
                case .success(let (scalar, end)):
                    #expect(
                        failure == nil && emitted == Array(String(scalar).utf8) && index == end,
                        "seed \(seed): \(bytes)"
                    )
                    #expect(skipped && skipIndex == end, "seed \(seed): \(bytes)")
                case .failure(let plain):
                    #expect(failure == plain.failure, "seed \(seed): \(bytes)")
                    #expect(!skipped, "seed \(seed): \(bytes)")
                }
            }
        }
    }

    /// `JSONEscape.hexValue(of:)` (four bytes judged at once) against the standard library reading the same four
    /// bytes as hex: the same value, or `nil` exactly when a byte is no hex digit — bytes beside the digits' and
    /// letters' ranges and those that differ from a digit by one bit (case, 0x80) most often, every value sometimes.
    @Test(arguments: SeededGenerator.seeds(20))
    func hexWordsReadAsTheStandardLibraryReadsThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let edges: [UInt8] =
            Array("0123456789abcdefABCDEF/:@G`g[{pPqQvVyY".utf8) + [
                0x00, 0x10, 0x20, 0x7F, 0x80, 0xB0, 0xC1, 0xE6, 0xFF,
            ]
        for _ in 0..<20_000 {
            let bytes = (0..<4).map { _ in
                random.chance(0.8) ? random.pick(edges) : UInt8.random(in: 0...255, using: &random)
            }
            let word = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
            let plain: UInt32? =
                bytes.allSatisfy { $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit }
                ? UInt32(String(decoding: bytes, as: UTF8.self), radix: 16) : nil
            #expect(JSONEscape.hexValue(of: word) == plain, "seed \(seed): \(bytes)")
        }
    }

    private struct PlainEscapeFailure: Error {
        let failure: JSONEscape.Failure
    }

    /// The `\u` escape whose digits start at `start` (past `\u`), read a byte at a time with the standard
    /// library: its character and where it ends, or the failure `JSONEscape` names.
    private static func plainUnicodeEscape(_ bytes: [UInt8], from start: Int) -> Result<
        (Unicode.Scalar, Int), PlainEscapeFailure
    > {
        func hex(at position: Int) -> Result<UInt32, PlainEscapeFailure> {
            for offset in 0..<4 {
                guard position + offset < bytes.count else {
                    return .failure(PlainEscapeFailure(failure: .missingHexDigit(at: position + offset)))
                }
                let byte = bytes[position + offset]
                guard byte < 0x80, Character(Unicode.Scalar(byte)).isHexDigit else {
                    return .failure(PlainEscapeFailure(failure: .badHexDigit(at: position + offset)))
                }
            }
            return .success(UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)!)
        }
        switch hex(at: start) {
        case .failure(let failure): return .failure(failure)
        case .success(let code):
            if (0xDC00..<0xE000).contains(code) {
                return .failure(PlainEscapeFailure(failure: .lowSurrogateFirst(at: start)))
            }
            guard (0xD800..<0xDC00).contains(code) else { return .success((Unicode.Scalar(code)!, start + 4)) }
            let next = start + 4
            guard next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else {
                return .failure(PlainEscapeFailure(failure: .missingLowSurrogate(at: next)))
            }
            switch hex(at: next + 2) {
            case .failure(let failure): return .failure(failure)
            case .success(let low):
                guard (0xDC00..<0xE000).contains(low) else {
                    return .failure(PlainEscapeFailure(failure: .badLowSurrogate(at: next + 2)))
                }
                return .success((Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))!, next + 6))
            }
        }
    }

    /// `JSONByteCursor.digitRunLength` (eight bytes at a time) ends each run where a byte-by-byte look ends it,
    /// whatever byte ends it and wherever the run lies against the words it loads.
    @Test(arguments: SeededGenerator.seeds(40))
    func digitRunsEndWhereAByteByByteLookEndsThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<1_000 {
            var bytes: [UInt8] = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                random.chance(0.85)
                    ? UInt8.random(in: 0x30...0x39, using: &random) : UInt8.random(in: 0...255, using: &random)
            }
            if random.chance(0.3) {
                bytes.append(random.pick([0x2F, 0x3A, 0x2E, 0x65, 0x45, 0x00, 0xB9, 0xBA, 0xFF, 0x80] as [UInt8]))
            }
            let start = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
            var expected = start
            while expected < bytes.count, (0x30...0x39).contains(bytes[expected]) { expected += 1 }
            bytes.withUnsafeBufferPointer { buffer in
                var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
                cursor.index = start
                #expect(cursor.index + cursor.digitRunLength() == expected, "seed \(seed): \(bytes) from \(start)")
            }
        }
    }

    /// `InlineBytes` keeps what `fill` writes — generated bytes of every value, any count up to the room asked
    /// for, none at all, in one part or two split anywhere — and reads back exactly those, and those parts, as an
    /// array filled the same way holds them; objects made
    /// one after another, of any size, do not overlap; and each is freed with its object (the sanitized run
    /// checks that none leaks).
    @Test(arguments: SeededGenerator.seeds(40))
    func inlineBytesHoldWhatWasWrittenAsAnArrayWould(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var kept: [(object: InlineBytesHolder, expected: [UInt8])] = []
        for _ in 0..<200 {
            let room = random.chance(0.1) ? 0 : Int.random(in: 0...2_000, using: &random)
            let bytes = (0..<Int.random(in: 0...room, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            var plain: [UInt8] = []
            plain.reserveCapacity(room)
            // Half the time in two parts, split anywhere (at either end too).
            let split = random.chance(0.5) ? Int.random(in: 0...bytes.count, using: &random) : nil
            let write = { (pointer: UnsafeMutablePointer<UInt8>) in
                for (offset, byte) in bytes.enumerated() {
                    pointer[offset] = byte
                    plain.append(byte)
                }
            }
            let object = InlineBytes.make(InlineBytesHolder.self, capacity: room) {
                pointer -> (count: Int, split: Int) in
                write(pointer)
                return (bytes.count, split ?? bytes.count)
            }
            // The parts are the object's own memory: read while it lives.
            withExtendedLifetime(object) {
                let (first, second) = InlineBytes.parts(of: object)
                let cut = split ?? plain.count
                #expect(Array(first) + Array(second) == plain, "seed \(seed): \(room) bytes of room")
                #expect(
                    Array(first) == Array(plain[..<cut]) && Array(second) == Array(plain[cut...]),
                    "seed \(seed): split at \(cut)"
                )
            }
            if random.chance(0.5) { kept.append((object, plain)) }
            if random.chance(0.2), !kept.isEmpty { kept.remove(at: Int.random(in: 0..<kept.count, using: &random)) }
        }
        for (object, expected) in kept {
            withExtendedLifetime(object) {
                let (first, second) = InlineBytes.parts(of: object)
                #expect(Array(first) + Array(second) == expected, "seed \(seed)")
            }
        }
    }
}

/// A class with no stored property, whose objects `InlineBytes` makes.
private final class InlineBytesHolder {}
