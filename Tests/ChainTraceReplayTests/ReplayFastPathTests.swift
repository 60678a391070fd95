import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTraceLog
import Testing

/// The replay's fast path — commands decoded into slots and refilled in place, rules compiled to read the slots,
/// trace storage reused — must decide exactly what the plain path decides and never hand out a value it reuses.
@Suite("Replay fast path")
struct ReplayFastPathTests {
    static let definitionText = """
        {
          "chain": "mixed",
          "handlers": [
            { "name": "Heavy", "accepts": { "all": [ { "kind": ["Coin"] }, { "field": "weight", "min": 5 } ] }, "next": "Card" },
            { "name": "Card", "accepts": { "field": "card.type", "in": ["visa", "amex"] }, "next": "Named" },
            { "name": "Named", "accepts": { "all": [ { "field": "name", "matches": "^[a-z]+$" }, { "not": { "field": "banned", "equals": true } } ] }, "next": "Sized" },
            { "name": "Sized", "accepts": { "any": [ { "field": "size", "equals": 2 }, { "field": "size", "in": ["S", "M"] } ] }, "next": "Photo" },
            { "name": "Photo", "accepts": { "field": "photo", "present": true }, "next": "Light" },
            { "name": "Light", "accepts": { "field": "weight", "max": 1 } }
          ]
        }
        """

    /// Lines that reach every kind of test with fields present, absent, null, of the wrong type, nested and
    /// written as a `fields` object.
    static let lines = [
        #"{"id":"a","kind":"Coin","weight":7.5}"#,
        #"{"id":"b","kind":"Token","weight":7.5}"#,
        #"{"id":"c","kind":"Coin","weight":"7.5"}"#,
        #"{"id":"d","kind":"Coin","weight":null,"card":{"type":"amex"}}"#,
        #"{"id":"e","card":{"type":"diners"},"name":"ada"}"#,
        #"{"id":"f","name":"ada","banned":true,"size":2.0}"#,
        #"{"id":"g","name":"Ada","size":"M"}"#,
        #"{"id":"h","size":3,"photo":null}"#,
        #"{"id":"i","photo":"p.png"}"#,
        #"{"id":"j","weight":0.5}"#,
        #"{"id":"k","weight":-3}"#,
        #"{"id":"l"}"#,
        #"{"id":"m","kind":"Coin","fields":{"weight":9,"name":"zed"}}"#,
        #"{"id":7,"kind":"Coin","weight":1e1}"#,
        #"{"id":"n","weight":5}"#,
    ]

    func replay(withSlots: Bool, keptPaths: Int = 1_000) throws -> ReplayReport {
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "mixed.json")
        var options = ReplaySession.Options()
        options.keptPaths = keptPaths
        let session = try ReplaySession(definition: definition, options: options)
        let bytes = Array(Self.lines.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")]
        // Without the session's schema the reader gives commands no slots, so every rule reads `fields`.
        let stream =
            withSlots
            ? session.openStream(bytes: bytes, name: "commands.jsonl")
            : CommandStreamReader(bytes: bytes, name: "commands.jsonl")
        return try session.run(stream)
    }

    @Test func compiledRulesReadingSlotsDecideLikeTheWrittenRules() throws {
        let fast = try replay(withSlots: true)
        let plain = try replay(withSlots: false)
        #expect(fast.commands == Self.lines.count)
        #expect(fast.paths.map(\.trace.path) == plain.paths.map(\.trace.path))
        #expect(fast.paths.map(\.trace.outcome) == plain.paths.map(\.trace.outcome))
        let acceptedBy = Dictionary(
            uniqueKeysWithValues: fast.paths.map { ($0.trace.commandID ?? "", $0.trace.outcome) }
        )
        #expect(acceptedBy["a"] == .accepted(by: "Heavy"))
        #expect(acceptedBy["b"] == .fellOffTheEnd)  // a Token is not a heavy coin and weighs too much to be light
        #expect(acceptedBy["c"] == .fellOffTheEnd)  // "7.5" is a string, not a number
        #expect(acceptedBy["d"] == .accepted(by: "Card"))
        #expect(acceptedBy["e"] == .accepted(by: "Named"))
        #expect(acceptedBy["f"] == .accepted(by: "Sized"))
        #expect(acceptedBy["g"] == .accepted(by: "Sized"))
        #expect(acceptedBy["h"] == .fellOffTheEnd)  // null counts as absent
        #expect(acceptedBy["i"] == .accepted(by: "Photo"))
        #expect(acceptedBy["j"] == .accepted(by: "Light"))
        #expect(acceptedBy["k"] == .accepted(by: "Light"))
        #expect(acceptedBy["l"] == .fellOffTheEnd)
        #expect(acceptedBy["m"] == .accepted(by: "Heavy"))
        #expect(acceptedBy["7"] == .accepted(by: "Heavy"))
        #expect(acceptedBy["n"] == .fellOffTheEnd)  // not a coin: min 5 alone does not make it heavy
    }

    @Test func keptTracesSurviveTheStorageBeingReused() throws {
        let report = try replay(withSlots: true)
        // Every kept trace still describes its own command, though later commands reused what they could.
        #expect(
            report.paths.map(\.trace.commandID) == [
                "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "7", "n",
            ]
        )
        #expect(report.paths.map(\.line) == Array(1...Self.lines.count))
        #expect(report.paths[0].trace.path == ["Heavy"])
        #expect(report.paths[11].trace.path == ["Heavy", "Card", "Named", "Sized", "Photo", "Light"])
        #expect(Set(report.paths.map(\.trace.id)).count == Self.lines.count)
        // With no paths kept, the profile still counts every hop of every command.
        let unkept = try replay(withSlots: true, keptPaths: 0)
        #expect(unkept.paths.isEmpty)
        #expect(unkept.profile.handlers.map(\.seen) == report.profile.handlers.map(\.seen))
        #expect(unkept.profile.statistics(of: "Heavy")?.accepted == 3)
    }

    @Test func commandsTheCallerKeepsAreNeverRefilled() throws {
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "mixed.json")
        let session = try ReplaySession(definition: definition)
        let bytes = Array(Self.lines.joined(separator: "\n").utf8)
        let stream = CommandStreamReader(bytes: bytes, schema: session.schema)
        var kept: [JSONCommand] = []
        while let (_, item) = try stream.next() {
            guard case .command(let command) = item else { continue }
            kept.append(command)
        }
        #expect(kept.map(\.id) == ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "7", "n"])
        #expect(kept[0].fields == ["weight": 7.5])
        #expect(kept[3].fields == ["weight": nil, "card": ["type": "amex"]])
        #expect(kept[12].fields == ["weight": 9, "name": "zed"])
        #expect(kept[14].kind == "Command")
        // A command dropped right away is refilled for the next line; the values read from it stay put.
        let again = CommandStreamReader(bytes: bytes, schema: session.schema)
        var ids: [String?] = []
        var weights: [JSONValue?] = []
        while let (_, item) = try again.next() {
            guard case .command(let command) = item else { continue }
            ids.append(command.id)
            weights.append(command.fields["weight"])
        }
        #expect(ids == kept.map(\.id))
        #expect(weights == kept.map { $0.fields["weight"] })
    }

    @Test func idsLeftInTheLineReadBackExactlyAndSurviveEdits() throws {
        let lines = [
            #"{"id":"plain-id-longer-than-sixteen","kind":"Coin","weight":7}"#,
            #"{"id":"esc\"aped","weight":7}"#,
            #"{"id":"café","weight":7}"#,
            #"{"id":"","weight":7}"#,
            #"{"weight":7,"id":"last"}"#,
            #"{"id":null,"weight":7}"#,
        ]
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "mixed.json")
        let session = try ReplaySession(definition: definition)
        let stream = CommandStreamReader(bytes: Array(lines.joined(separator: "\n").utf8), schema: session.schema)
        var commands: [JSONCommand] = []
        while let (_, item) = try stream.next() {
            guard case .command(let command) = item else { continue }
            commands.append(command)
        }
        #expect(commands.map(\.id) == ["plain-id-longer-than-sixteen", #"esc"aped"#, "café", "", "last", nil])
        var edited = commands[0]
        edited.kind = "Token"
        #expect(edited.id == "plain-id-longer-than-sixteen")
        edited.fields = ["weight": 1]
        #expect(edited.id == "plain-id-longer-than-sixteen")
        edited.id = "renamed"
        #expect(edited.id == "renamed")
        edited.entry = "Light"
        #expect(edited.id == "renamed")
        #expect(commands[0].id == "plain-id-longer-than-sixteen")
        #expect(commands[0] == JSONCommand(kind: "Coin", id: "plain-id-longer-than-sixteen", fields: ["weight": 7]))
    }

    /// The decoder remembers the keys of the line before by position; a line whose keys differ — longer, shorter,
    /// reordered, spaced, escaped, too long to remember — must read exactly as it reads on its own.
    @Test func keysRememberedFromTheLineBeforeNeverMisreadTheNext() throws {
        let lines = [
            #"{"weight":7,"kind":"Coin","name":"ada"}"#,
            #"{"weights":7,"kind":"Coin","name":"ada"}"#,
            #"{"weigh":7,"kinds":"Coin","name":"ada"}"#,
            #"{"kind":"Coin","weight":7,"name":"ada"}"#,
            #"{"kind" : "Coin", "weight" :7 ,"name":"ada"}"#,
            #"{"kind":"Coin","weight":7,"name":"ada"}"#,
            #"{"kind":"Coin","weight":7,"nam":"ada"}"#,
            #"{"kind":"Coin","weight":7,"name":"ada","size":2}"#,
            #"{"kind":"Coin","weight":7,"a-key-much-longer-than-sixteen":1,"size":2}"#,
            #"{"kind":"Coin","weight":7,"a-key-much-longer-than-sixteen":1,"size":2}"#,
            #"{"kind":"Coin","weight":7,"a-key-much-longer-than-sixteeN":1,"size":"M"}"#,
            #"{"kind":"Coin","weight":1,"id":"x","entry":"Light"}"#,
            #"{"kind":"Coin","id":"x","fields":{"weight":9}}"#,
            #"{"kind":"Coin","weight":1,"id":"x","entry":"Light"}"#,
            #"{"k\u0069nd":"Token","weight":1}"#,
            #"{"kind":"Token","weight":1}"#,
            #"{"size":2}"#,
            #"{"s":2}"#,
            #"{"size":2}"#,
            #"{"sizes":"S"}"#,
            #"{"size":"S"}"#,
        ]
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "mixed.json")
        let session = try ReplaySession(definition: definition)
        func commands(_ lines: [String]) throws -> [JSONCommand] {
            let stream = CommandStreamReader(bytes: Array(lines.joined(separator: "\n").utf8), schema: session.schema)
            var commands: [JSONCommand] = []
            while let (_, item) = try stream.next() {
                guard case .command(let command) = item else { continue }
                commands.append(command)
            }
            return commands
        }
        let inSequence = try commands(lines)
        let alone = try lines.flatMap { try commands([$0]) }
        #expect(inSequence.count == lines.count)
        #expect(inSequence == alone)
        #expect(inSequence[1].fields == ["weights": 7, "name": "ada"])
        #expect(inSequence[4].kind == "Coin")
        #expect(inSequence[14].kind == "Token")
        // The rules read the slots the decoder filled: each line is decided as it is decided on its own.
        let replayed = try session.run(
            CommandStreamReader(bytes: Array(lines.joined(separator: "\n").utf8), schema: session.schema)
        )
        var decidedAlone: [Outcome] = []
        for line in lines {
            let report = try session.run(CommandStreamReader(bytes: Array(line.utf8), schema: session.schema))
            decidedAlone.append(contentsOf: report.paths.map(\.trace.outcome))
        }
        #expect(replayed.paths.map(\.trace.outcome) == decidedAlone)
        #expect(replayed.paths[0].trace.outcome == .accepted(by: "Heavy"))
        #expect(replayed.paths[1].trace.outcome == .accepted(by: "Named"))
        #expect(replayed.paths[16].trace.outcome == .accepted(by: "Sized"))
        #expect(replayed.paths[17].trace.outcome == .fellOffTheEnd)
        #expect(replayed.paths[19].trace.outcome == .fellOffTheEnd)
        #expect(replayed.paths[20].trace.outcome == .accepted(by: "Sized"))

        // Keys that share their first eight bytes with the one remembered, and differ only after them.
        let wide = try ChainDefinition.load(
            bytes: Array(
                #"""
                { "chain": "keys", "handlers": [
                  { "name": "Wide", "accepts": { "field": "diameter", "min": 20 }, "next": "Delivered" },
                  { "name": "Delivered", "accepts": { "field": "delivered", "present": true }, "next": "Dented" },
                  { "name": "Dented", "accepts": { "field": "d", "present": true } } ] }
                """#.utf8
            ),
            file: "keys.json"
        )
        let wideSession = try ReplaySession(definition: wide)
        let wideLines = [
            #"{"diameter":25}"#, #"{"diameterX":25}"#, #"{"diameter":25}"#, #"{"diametex":25}"#,
            #"{"delivered":1}"#, #"{"deliverer":1}"#, #"{"delivered":1}"#,
            // Short keys at the end of a line, fewer than eight bytes before it.
            #"{"d":1}"#, #"{"e":1}"#, #"{"d":1}"#,
        ]
        let wideReport = try wideSession.run(
            CommandStreamReader(bytes: Array(wideLines.joined(separator: "\n").utf8), schema: wideSession.schema)
        )
        #expect(
            wideReport.paths.map(\.trace.outcome) == [
                .accepted(by: "Wide"), .fellOffTheEnd, .accepted(by: "Wide"), .fellOffTheEnd,
                .accepted(by: "Delivered"), .fellOffTheEnd, .accepted(by: "Delivered"),
                .accepted(by: "Dented"), .fellOffTheEnd, .accepted(by: "Dented"),
            ]
        )
    }
}
