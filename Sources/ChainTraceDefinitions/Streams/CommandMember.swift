import ChainTraceFastPath
import ChainTrace
import ChainTraceJSON

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

    /// The member a key names, for a decoder filling `schema`'s slots.
    init(_ key: RawKey, schema: FieldSchema?) {
        switch key {
        case "kind": self = .kind
        case "id": self = .id
        case "entry": self = .entry
        case "fields": self = .fields
        case "change": self = .change
        default: self = schema?.slot(for: key.bytes).map(CommandMember.slot) ?? .unread
        }
    }
}
