/// Names in text for people — outcomes, paths, tables, titles: the name itself, or words for the empty one, which
/// `traceHop` accepts (a handler's name, and its `chain` when none is given) and a sentence would otherwise lose
/// ("accepted by ", "A → B → ", "Profile of ").
package enum HandlerNameText {
    /// What text shows for a handler named `name`: "(empty name)" for the empty one.
    package static func of(_ name: String) -> String {
        name.isEmpty ? "(empty name)" : name
    }

    /// What text shows for a chain named `name`: "(unnamed chain)" for the empty one.
    package static func chain(_ name: String) -> String {
        name.isEmpty ? "(unnamed chain)" : name
    }
}
