/// The services the stages call, simulated: each call takes a few milliseconds, as a network call would.
actor Backend {
    private var taken: Set<String> = ["admin", "root", "support"]
    private(set) var profiles: [String: SignUpForm] = [:]

    /// Starts the simulated network (the first timer a process sets up costs several milliseconds), so the
    /// first stage's times are its own.
    func warmUp() async throws {
        try await Task.sleep(for: .milliseconds(1), tolerance: .zero)
    }

    nonisolated func isTaken(_ username: String) async throws -> Bool {
        try await Task.sleep(for: .milliseconds(2), tolerance: .zero)
        return await taken.contains(username)
    }

    func createAccount(username: String, email: String) async throws -> String {
        try await Task.sleep(for: .milliseconds(3), tolerance: .zero)
        taken.insert(username)
        return "acct-\(username)"
    }

    /// Uploads are the slow call; a file whose name ends in `.corrupt` times out.
    func upload(_ file: String, for account: String) async throws -> String {
        try await Task.sleep(for: .milliseconds(12), tolerance: .zero)
        if file.hasSuffix(".corrupt") { throw SignUpError.uploadFailed(file: file, reason: "timed out after 12 ms") }
        return "https://cdn.example.com/\(account)/\(file)"
    }

    func save(_ form: SignUpForm) async throws {
        try await Task.sleep(for: .milliseconds(1), tolerance: .zero)
        profiles[form.username] = form
    }
}
