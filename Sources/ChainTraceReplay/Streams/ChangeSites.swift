import ChainTrace
import ChainTraceJSON

/// Where a stream line's chain change names its handlers and registries — each member that holds a name, with
/// its line and column — so that the chain's refusal of the change (an unknown or duplicate name) can point at
/// the name it refused, as a bad command's error does.
package struct ChangeSites: Sendable, Hashable {
    /// One member holding a name.
    package struct Site: Sendable, Hashable {
        /// The member's path in the line (`before`, `handler.name`).
        package var member: String
        /// The name it holds.
        package var name: String
        package var line: Int
        package var column: Int
    }

    /// The members holding names, in the line's order of meaning: the handler first, then where it goes.
    package var sites: [Site] = []

    /// The member that names `name`, preferring the new handler's own name for a duplicate (`duplicate`), and a
    /// place or a registry for an unknown name (a new handler's own name is never unknown).
    package func site(naming name: String, duplicate: Bool) -> Site? {
        let naming = sites.filter { $0.name == name }
        let isNewHandler = { (site: Site) in site.member == "handler.name" }
        return (duplicate ? naming.first(where: isNewHandler) : naming.first(where: { !isNewHandler($0) }))
            ?? naming.first
    }

    /// `error` — the chain's refusal of the change — pointed at the member that named what it refused, with its
    /// line and column; `nil` when no member names it.
    package func located(_ error: any Error, file: String) -> FormatError? {
        let site: Site?
        switch error {
        case let error as ChainError:
            guard let name = error.handlers.first else { return nil }
            site = self.site(naming: name, duplicate: error.code == .duplicateName)
        case let error as UnregisteredMember:
            site = sites.first { $0.member == "handler" && $0.name == error.name }
        default:
            return nil
        }
        guard let site else { return nil }
        return FormatError(
            file: file,
            line: site.line,
            column: site.column,
            expected: "a change the chain can make",
            found: "\(error)"
        )
    }
}
