import ChainTrace

/// Checks the username's shape, then asks the backend whether it is free.
struct UsernameCheck: AsyncChainHandler {
    let backend: Backend
    var name: String { "UsernameCheck" }

    func handle(_ form: SignUpForm) async throws -> HandlerResponse<SignUpForm, Account> {
        let valid =
            (3...20).contains(form.username.count)
            && form.username.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
        guard valid else { throw SignUpError.invalidUsername(form.username) }
        if try await backend.isTaken(form.username) { throw SignUpError.usernameTaken(form.username) }
        return .continue
    }
}

/// Creates the account and hands its id to the next stages.
struct CreateAccount: AsyncChainHandler {
    let backend: Backend
    var name: String { "CreateAccount" }

    func handle(_ form: SignUpForm) async throws -> HandlerResponse<SignUpForm, Account> {
        var form = form
        form.accountID = try await backend.createAccount(username: form.username, email: form.email)
        return .continue(with: form)
    }
}

/// Uploads the photo, if there is one, and hands its address on; with no photo it has nothing to do.
struct UploadPhoto: AsyncChainHandler {
    let backend: Backend
    var name: String { "UploadPhoto" }

    func handle(_ form: SignUpForm) async throws -> HandlerResponse<SignUpForm, Account> {
        guard let photo = form.photo else { return .pass(because: "no photo") }
        guard let account = form.accountID else { throw SignUpError.missingAccount }
        var form = form
        form.photoURL = try await backend.upload(photo, for: account)
        return .continue(with: form)
    }
}

/// Saves the profile and finishes the flow with the account.
struct SaveProfile: AsyncChainHandler {
    let backend: Backend
    var name: String { "SaveProfile" }

    func handle(_ form: SignUpForm) async throws -> HandlerResponse<SignUpForm, Account> {
        guard let account = form.accountID else { throw SignUpError.missingAccount }
        try await backend.save(form)
        return .accept(Account(id: account, username: form.username, photoURL: form.photoURL))
    }
}

/// The four stages in order; each awaits its service, then the chain moves on.
func makeSignUpChain(backend: Backend, recorder: Recorder) throws -> AsyncChain<SignUpForm, Account> {
    try AsyncChain(
        "sign-up",
        handlers: [
            AsyncHandler(UsernameCheck(backend: backend)), AsyncHandler(CreateAccount(backend: backend)),
            AsyncHandler(UploadPhoto(backend: backend)), AsyncHandler(SaveProfile(backend: backend)),
        ],
        recorder: recorder
    )
}
