/// A handler's name in text for people — outcomes, paths, tables: the name itself, or "(empty name)" for the empty
/// one, which `traceHop` accepts and a sentence would otherwise lose ("accepted by ", "A → B → ").
package enum HandlerNameText {
    /// What text shows for a handler named `name`.
    package static func of(_ name: String) -> String {
        name.isEmpty ? "(empty name)" : name
    }
}
