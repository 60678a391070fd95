/// Whether a handler may take commands or only watches them go by.
public enum HandlerRole: String, Sendable, Hashable, Codable {
    /// May accept a command (stopping the chain) or pass it on.
    case responder
    /// Does its work and always lets the command go on — analytics, logging, metrics.
    case observer
}
