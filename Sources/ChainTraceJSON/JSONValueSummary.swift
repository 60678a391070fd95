extension JSONValue {
    /// A short phrase for error messages, saying what a value is: `the string "abc"`, `the number 3`,
    /// `an object`, `an array`, `true`, `null`; a whole number past 64 bits, which reads as a float, says so.
    /// Strings are cut at 40 characters and shown escaped (`VisibleText`): a message quoting data stays on one
    /// line and never acts on a terminal.
    public var summary: String {
        switch self {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .integer(let number): "the number \(number)"
        case .double(let number):
            // An integer written past 64 bits is read as a float: said so, since the field may want an integer.
            number.isFinite && number == number.rounded() && abs(number) >= 0x1p63
                ? "the number \(number) (an integer past the 64-bit range -2^63 to 2^63 - 1)" : "the number \(number)"
        case .string(let text): "the string \"\(VisibleText.escaped(String(text.prefix(40))))\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
