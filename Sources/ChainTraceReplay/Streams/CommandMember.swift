import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFastPath
import ChainTraceJSON
import ChainTraceTraceLog

/// What the command line decoder does with a member of a command line, decided from its key.
enum CommandMember: Equatable {
    /// `"kind"`.
    case kind
    /// `"id"`.
    case id
    /// `"entry"`.
    case entry
    /// `"fields"`: the command's fields as one object.
    case fields
    /// `"change"`: the line is a chain change, for the general path.
    case change
    /// A field of the command that the schema gives this slot.
    case slot(Int)
    /// A field of the command that no rule reads.
    case unread

    /// The member a key names, for a decoder filling `schema`'s slots. A function rather than an initialiser:
    /// an initialiser's arguments are passed owned, so every key not remembered cost a retain and release of the
    /// schema (5% of a replay of a stream whose lines vary their key order, perf).
    static func named(_ key: RawKey, schema: FieldSchema?) -> CommandMember {
        switch key {
        case "kind": .kind
        case "id": .id
        case "entry": .entry
        case "fields": .fields
        case "change": .change
        default: schema?.slot(for: key.bytes).map(CommandMember.slot) ?? .unread
        }
    }
}
