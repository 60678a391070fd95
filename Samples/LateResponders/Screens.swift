import ChainTrace
import Foundation

/// A user action, as the app's views send it up the chain.
struct Action: TracedCommand, Sendable {
    var id: String?
    var name: String

    var commandKind: String { "Action" }
    var commandID: String? { id }
}

/// A screen that answers a few actions while it is on screen: it registers in the chain's `Screens` registry when
/// it appears and deregisters when it disappears. The weight puts the frontmost screen first.
struct Screen: ChainHandler {
    let name: String
    let weight: Int
    let actions: Set<String>

    func handle(_ action: Action) -> HandlerResponse<Action, String> {
        actions.contains(action.name) ? .accept("\(name) did \(action.name)") : .pass
    }

    func canHandle(_ action: Action) -> Bool? { actions.contains(action.name) }

    /// The app's screens, by name.
    static let catalogue: [String: Screen] = [
        "HomeScreen": Screen(name: "HomeScreen", weight: 0, actions: ["search", "refresh"]),
        "DetailScreen": Screen(name: "DetailScreen", weight: 10, actions: ["share", "back"]),
        "ShareSheet": Screen(name: "ShareSheet", weight: 100, actions: ["share", "dismiss"]),
    ]
}

/// The media player the proxy drives; not a responder itself.
final class MediaPlayer: @unchecked Sendable {
    // @unchecked: `performed` is only touched while holding `lock`.
    private let lock = NSLock()
    private var performed: [String] = []

    func perform(_ action: String) { lock.withLock { performed.append(action) } }
    var actions: [String] { lock.withLock { performed } }
}

/// Stands in the chain for the media player and forwards only the actions the player understands; every other
/// action passes on, with the reason in its trace.
struct PlayerProxy: ChainHandler {
    let player: MediaPlayer
    let forwarded: Set<String> = ["play", "pause", "seek"]
    var name: String { "PlayerProxy" }

    func handle(_ action: Action) -> HandlerResponse<Action, String> {
        guard forwarded.contains(action.name) else { return .pass(because: "not a player action") }
        player.perform(action.name)
        return .accept("player did \(action.name)")
    }

    func canHandle(_ action: Action) -> Bool? { forwarded.contains(action.name) }
}

/// Toolbar → Screens (the registry of late responders) → PlayerProxy → AppDelegate.
func makeLateResponderChain(player: MediaPlayer, recorder: Recorder) throws -> Chain<Action, String> {
    let chain = try Chain<Action, String>(
        "late-responders",
        handlers: [
            Handler("Toolbar", canHandle: { $0.name == "menu" }) { $0.name == "menu" ? .accept("menu opened") : .pass }
        ],
        recorder: recorder
    )
    _ = try chain.addRegistry("Screens")
    try chain.append(Handler(PlayerProxy(player: player)))
    try chain.append(
        Handler("AppDelegate", canHandle: { $0.name == "about" }) { $0.name == "about" ? .accept("about box") : .pass }
    )
    return chain
}
