import ChainTrace

/// What a person filled in, plus what the stages add on the way: the account the second stage creates and the
/// photo address the third uploads to — handed from stage to stage with `.continue(with:)`.
struct SignUpForm: Codable, Sendable, TracedCommand {
    var id: String
    var username: String
    var email: String
    var photo: String?
    var accountID: String?
    var photoURL: String?

    /// Traces name the command `SignUp` and carry the form's id, so a log line leads back to its sign-up.
    var commandKind: String { "SignUp" }
    var commandID: String? { id }
}

/// The account the flow ends with.
struct Account: Sendable, CustomStringConvertible {
    var id: String
    var username: String
    var photoURL: String?

    var description: String { "account \(id) for \(username)" + (photoURL.map { ", photo \($0)" } ?? ", no photo") }
}

/// Why a sign-up stopped; the trace's outcome names the stage that threw it.
enum SignUpError: Error, CustomStringConvertible {
    case invalidUsername(String)
    case usernameTaken(String)
    case uploadFailed(file: String, reason: String)
    case missingAccount

    var description: String {
        switch self {
        case .invalidUsername(let name): "username \"\(name)\" must be 3–20 lowercase letters or digits"
        case .usernameTaken(let name): "username \"\(name)\" is taken"
        case .uploadFailed(let file, let reason): "upload of \(file) failed: \(reason)"
        case .missingAccount: "no account was created before the profile was saved"
        }
    }
}
