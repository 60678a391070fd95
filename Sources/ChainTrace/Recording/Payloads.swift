import ChainTraceJSON

/// Whether traces carry their command as JSON — its payload — and what of it. A replay of a recorded log needs
/// them; a log a user reads does not. Off unless asked for: commands often hold what must not land in a log
/// (passwords, tokens, personal data), so nothing of a command is recorded but its kind and id until a recorder
/// says so.
///
/// ```swift
/// let recorder = Recorder(sink: log, payloads: .captured(redacting: { payload in
///     payload["password"] = nil                 // never written
///     payload["card"] = "<redacted>"
/// }))
/// ```
///
/// A command's payload is what its `Encodable` conformance encodes, or its ``TracedCommand/commandPayload``.
public struct Payloads: Sendable {
    enum Mode: Sendable {
        case none
        case captured
        case redacted(@Sendable (inout JSONValue) -> Void)
    }

    let mode: Mode

    /// Traces carry no payload: the default.
    public static let none = Payloads(mode: .none)

    /// Traces carry each command as it encodes, whole.
    public static let captured = Payloads(mode: .captured)

    /// Traces carry each command as it encodes, after `redact` has changed it: remove or mask what must not be
    /// recorded. `redact` runs on the recording thread, once a traced command, on a JSON value (so the payload
    /// is not written as text straight from the command, as an unredacted one is).
    public static func captured(redacting redact: @escaping @Sendable (inout JSONValue) -> Void) -> Payloads {
        Payloads(mode: .redacted(redact))
    }

    /// Whether traces carry payloads at all.
    public var areCaptured: Bool {
        if case .none = mode { return false }
        return true
    }
}
