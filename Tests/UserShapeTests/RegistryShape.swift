import ChainTrace

/// A screen that registers with a registry and answers some actions.
final class Screen {
    let name: String
    let actions: Set<String>
    var answered: [String] = []

    init(_ name: String, actions: Set<String>) {
        self.name = name
        self.actions = actions
    }

    func handle(_ action: String) -> Bool {
        traceHop(name, command: action, chain: "editor") {
            guard actions.contains(action) else { return false }
            answered.append(action)
            return true
        }
    }

    func handleAsync(_ action: String) async -> Bool {
        await traceHop(name, command: action, chain: "editor") {
            await Task.yield()
            guard actions.contains(action) else { return false }
            answered.append(action)
            return true
        }
    }
}

/// The seed's late-responder registry: screens asked in weight order inside the registry's own hop.
final class ScreenRegistry {
    var screens: [(weight: Int, screen: Screen)] = []
    var fallback: Screen?

    func register(_ screen: Screen, weight: Int) {
        screens.append((weight, screen))
        screens.sort { $0.weight > $1.weight }
    }

    func handle(_ action: String) -> Bool {
        traceHop("Screens", command: action, chain: "editor") {
            let taken = traceRegistryMembers { screens.contains { $0.screen.handle(action) } }
            if !taken { ChainTracing.decide(.passed, reason: "no screen took \(action)") }
            return taken || (fallback?.handle(action) ?? false)
        }
    }

    func handleAsync(_ action: String) async -> Bool {
        await traceHop("Screens", command: action, chain: "editor") {
            let taken = await traceRegistryMembers {
                for entry in screens where await entry.screen.handleAsync(action) { return true }
                return false
            }
            if taken { return true }
            return await fallback?.handleAsync(action) ?? false
        }
    }
}

/// A member that knows its registry and marks itself.
final class SelfMarkingScreen {
    let registry: String
    var next: SelfMarkingScreen?

    init(registry: String) { self.registry = registry }

    func handle(_ action: String) -> Bool {
        traceHop("Marking", command: action, chain: "editor") {
            ChainTracing.markMember(of: registry)
            return next?.handle(action) ?? false
        }
    }
}
