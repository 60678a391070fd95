import ChainTraceFastPath

extension JSONByteCursor {
    /// Any JSON value, parsed in full by the general parser (for payloads).
    package mutating func value() -> JSONValue? {
        let start = index
        guard skipValue() else { return nil }
        return try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<index]), enclosingDepth: depth)
    }
}
