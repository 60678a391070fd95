#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An error whose `description` is its whole text in a trace: no type name is added. Conform errors whose
/// message already says everything, as ``ChainError`` does.
public protocol SelfDescribingError: Error, CustomStringConvertible {}

/// The text a failed hop records for what its handler threw or returned: the message a user would read and the
/// error's type, so a test can match either.
///
/// | the error | its text |
/// |---|---|
/// | a `LocalizedError` with an `errorDescription` | `Username is already in use. (AuthError.usernameAlreadyUsed)` (the case without its values) |
/// | an enum case without a description | `AuthError.usernameAlreadyUsed` (or `AuthError.tooLong(250)`) |
/// | `CustomStringConvertible` | `window is gone (WindowError)` |
/// | a struct without a description | `Crash(code: 3)` (its type is already there) |
/// | a ``SelfDescribingError`` | its `description`, exactly |
/// | a value that is not an `Error` (judged failed by `decide`) | `String(describing:)` of it |
public enum FailureText {
    /// The text recorded for `value`.
    public static func of(_ value: Any) -> String {
        guard value is any Error else { return String(describing: value) }
        if let exact = value as? any SelfDescribingError { return exact.description }
        let typeName = String(describing: type(of: value))
        let describes = value is any CustomStringConvertible || value is any CustomDebugStringConvertible
        // An enum without a description prints its case; with its type, it names the error exactly.
        let caseName = Mirror(reflecting: value).displayStyle == .enum && !describes
        let plain = String(describing: value)
        if let message = (value as? any LocalizedError)?.errorDescription {
            // The message tells the values; the case name alone says which error it was.
            return "\(message) (\(caseName ? "\(typeName).\(plain.prefix { $0 != "(" })" : typeName))"
        }
        if caseName { return "\(typeName).\(plain)" }
        if !describes { return plain }  // a struct's or class's default text starts with its type already
        return "\(plain) (\(typeName))"
    }
}
