import ChainTrace

// The shapes users write, compiled as they write them: plain non-Sendable classes, default Swift 6 mode, no
// upcoming features (this target sets no Swift settings). If a change to ChainTrace's public API stops any of
// this from compiling, it breaks users' code.

/// A sign-up form handed along an async chain (not `Sendable`: users rarely mark their models).
struct SignUpForm {
    var username: String
    var email: String
    var photo: [UInt8] = []
}

/// A stage's failure, returned rather than thrown.
enum SignUpError: Error, Equatable {
    case usernameTaken, invalidEmail, uploadFailed
}

/// A service the stages await, holding mutable state: a plain class.
final class UsernameService {
    var taken: Set<String> = ["taken"]
    var checks = 0

    func isTaken(_ name: String) async -> Bool {
        checks += 1
        await Task.yield()
        return taken.contains(name)
    }
}

/// The seed's shape: each stage validates, awaits a service, then awaits the next stage held in `next`.
protocol SignUpStage: AnyObject {
    var next: (any SignUpStage)? { get set }
    func handle(_ form: SignUpForm) async -> SignUpError?
}

final class CheckUsername: SignUpStage {
    var next: (any SignUpStage)?
    let service: UsernameService
    var seen: [String] = []

    init(service: UsernameService) { self.service = service }

    func handle(_ form: SignUpForm) async -> SignUpError? {
        await traceHop("CheckUsername", command: form, chain: "sign-up", decide: { $0 == nil ? .accepted : .failed }) {
            seen.append(form.username)
            if await service.isTaken(form.username) { return .usernameTaken }
            return await next?.handle(form)
        }
    }
}

final class CheckEmail: SignUpStage {
    var next: (any SignUpStage)?

    func handle(_ form: SignUpForm) async -> SignUpError? {
        await traceHop("CheckEmail", command: form, chain: "sign-up", decide: { $0 == nil ? .accepted : .failed }) {
            guard form.email.contains("@") else { return .invalidEmail }
            return await next?.handle(form)
        }
    }
}

/// Throws instead of returning its error, and hands data on to the next stage.
final class UploadPhoto: SignUpStage {
    var next: (any SignUpStage)?
    var uploaded: [String: Int] = [:]

    func handle(_ form: SignUpForm) async -> SignUpError? {
        do {
            return try await traceHop("UploadPhoto", command: form, chain: "sign-up") {
                try await upload(form)
                var withURL = form
                withURL.photo = []
                return await next?.handle(withURL)
            }
        } catch {
            return .uploadFailed
        }
    }

    private func upload(_ form: SignUpForm) async throws {
        await Task.yield()
        if form.photo.first == 0xFF { throw SignUpError.uploadFailed }
        uploaded[form.username] = form.photo.count
    }
}

final class SaveUser: SignUpStage {
    var next: (any SignUpStage)?
    var saved: [String] = []

    func handle(_ form: SignUpForm) async -> SignUpError? {
        // No `await` in its body: the synchronous hop, inside the async chain's trace.
        traceHop("SaveUser", command: form, chain: "sign-up", decide: { $0 == nil ? .accepted : .failed }) {
            saved.append(form.username)
            return nil
        }
    }
}

/// The four stages linked as the seed links them.
func makeSignUpChain(service: UsernameService = UsernameService()) -> any SignUpStage {
    let first = CheckUsername(service: service)
    let email = CheckEmail()
    let photo = UploadPhoto()
    first.next = email
    email.next = photo
    photo.next = SaveUser()
    return first
}

/// The same chain on the main actor, as a UI app's responders are.
@MainActor
final class MainActorResponder {
    let name: String
    var next: MainActorResponder?
    var handled: [String] = []

    init(_ name: String, next: MainActorResponder? = nil) {
        self.name = name
        self.next = next
    }

    func handle(_ action: String) async -> Bool {
        await traceHop(name, command: action, chain: "responders") {
            MainActor.assertIsolated()
            if action.hasPrefix(name) {
                handled.append(action)
                return true
            }
            return await next?.handle(action) ?? false
        }
    }
}
