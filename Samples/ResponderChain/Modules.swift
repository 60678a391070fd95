import ChainTrace
import ChainTraceDefinitions
import Foundation

/// What the app's modules did, for the sample to report: the analytics events recorded, the items favourited.
final class ModuleEffects: @unchecked Sendable {
    // @unchecked: both lists are only touched while holding `lock`.
    private let lock = NSLock()
    private var recordedEvents: [String] = []
    private var favouritedItems: [String] = []

    func recordEvent(_ event: String) { lock.withLock { recordedEvents.append(event) } }
    func favourite(_ item: String) { lock.withLock { favouritedItems.append(item) } }
    var events: [String] { lock.withLock { recordedEvents } }
    var favourites: [String] { lock.withLock { favouritedItems } }
}

/// The Swift types behind the modules a white-label configuration can name in `"type"`. Each configuration's
/// definition picks the modules it wants; the app registers every type once.
func moduleTypes(effects: ModuleEffects) -> HandlerTypes {
    var types = HandlerTypes()
    // Records every command it sees, then lets it go on up the tree.
    types.register("Analytics") { definition in
        .observer(definition.name) { command in
            effects.recordEvent("\(command.kind):\(command.fields["action"]?.stringValue ?? "-")")
        }
    }
    // Takes "favorite" actions for the item named in the command.
    types.register("Favorites") { definition in
        Handler(definition.name, canHandle: { $0.fields["action"]?.stringValue == "favorite" }) { command in
            guard command.fields["action"]?.stringValue == "favorite" else { return .pass }
            let item = command.fields["item"]?.stringValue ?? "?"
            effects.favourite(item)
            return .accept(.string("favourited \(item)"))
        }
    }
    // Opens a support conversation; configured with the channel to use.
    types.register("SupportChat") { definition in
        let channel = definition.options["channel"]?.stringValue ?? "email"
        return Handler(definition.name, canHandle: { $0.fields["action"]?.stringValue == "help" }) { command in
            command.fields["action"]?.stringValue == "help" ? .accept(.string("support via \(channel)")) : .pass
        }
    }
    // Plugged in while the app runs: switches the theme.
    types.register("Themes") { definition in
        Handler(definition.name, canHandle: { $0.fields["action"]?.stringValue == "toggle-theme" }) { command in
            command.fields["action"]?.stringValue == "toggle-theme" ? .accept(.string("theme switched")) : .pass
        }
    }
    return types
}
