import ChainTrace
import Foundation
import Testing

@testable import ChainTraceDefinitions
@testable import ChainTraceJSON

@Suite("The chain definition's JSON Schema")
struct ChainDefinitionSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func schema() throws -> JSONValue {
        try JSONParser.parse(
            String(contentsOf: Self.root.appendingPathComponent("Docs/chain-definition.schema.json"), encoding: .utf8)
        )
    }

    func keys(_ value: JSONValue?) -> Set<String> {
        guard case .object(let members)? = value else { return [] }
        return Set(members.keys)
    }

    @Test func schemaNamesExactlyTheMembersTheReaderAccepts() throws {
        let schema = try schema()
        #expect(keys(schema["properties"]) == ChainDefinitionDecoder.topLevelKeys)
        #expect(keys(schema["$defs"]?["handler"]?["properties"]) == ChainDefinitionDecoder.handlerKeys)
        guard case .array(let rules)? = schema["$defs"]?["rule"]?["oneOf"] else {
            Issue.record("the schema has no rule alternatives")
            return
        }
        let fieldTest = rules.first { $0["required"] == ["field"] }
        #expect(keys(fieldTest?["properties"]) == ChainDefinitionDecoder.fieldTestKeys)
        let combinators = Set(
            rules.compactMap { rule -> String? in
                guard case .array(let required)? = rule["required"], required.count == 1 else { return nil }
                return required[0].stringValue
            }
        )
        #expect(combinators == ["field", "kind", "all", "any", "not"])
    }

    @Test func durationsTheSchemaDescribesAreTheOnesTheReaderReads() throws {
        let pattern = try #require(try schema()["$defs"]?["duration"]?["pattern"]?.stringValue)
        let regex = try Regex(pattern)
        for text in ["250ns", "20us", "20\u{B5}s", "20\u{3BC}s", "1.5ms", "2s", " 3 ms "] {
            #expect(DurationText.nanoseconds(text) != nil, "\(text)")
            #expect((try? regex.wholeMatch(in: text)) != nil, "\(text)")
        }
        for text in ["20", "ms", "-1ms", "1.5.2s"] {
            #expect(DurationText.nanoseconds(text) == nil, "\(text)")
            #expect((try? regex.wholeMatch(in: text)) == nil, "\(text)")
        }
    }
}
