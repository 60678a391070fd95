import ChainTrace
public import ChainTraceJSON

extension JSONValue {
    /// This value with the member or element at `path` (member names, and array indices as digits) set to
    /// `replacement`, or removed when it is `nil`; unchanged where the path leads nowhere. For tests that break
    /// one field of a valid document.
    public func changing(at path: ArraySlice<String>, to replacement: JSONValue?) -> JSONValue {
        guard let first = path.first else { return replacement ?? .null }
        switch self {
        case .object(var members):
            if path.count == 1 {
                members[first] = replacement
            } else if let member = members[first] {
                members[first] = member.changing(at: path.dropFirst(), to: replacement)
            }
            return .object(members)
        case .array(var elements):
            guard let index = Int(first), elements.indices.contains(index) else { return self }
            elements[index] = elements[index].changing(at: path.dropFirst(), to: replacement)
            return .array(elements)
        default:
            return self
        }
    }
}
