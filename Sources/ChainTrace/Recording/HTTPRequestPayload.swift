import ChainTraceJSON

/// What the HTTP framework integrations record of a request as its payload, the same for every framework: the
/// method, path, query, matched route and headers, never the headers that carry credentials.
package enum HTTPRequestPayload {
    /// Headers never recorded, whatever the recorder captures: credentials and cookies (lowercase names).
    package static let credentialHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]

    /// The payload: `headers` by lowercase name, repeated fields joined with ", " as HTTP allows, less
    /// ``credentialHeaders``; `route` and `query` only when there are.
    package static func make(
        method: String,
        path: String,
        query: String?,
        route: String?,
        headers: some Sequence<(name: String, value: String)>
    ) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for (name, value) in headers {
            let name = name.lowercased()
            guard !credentialHeaders.contains(name) else { continue }
            if case .string(let earlier) = fields[name] {
                fields[name] = .string(earlier + ", " + value)
            } else {
                fields[name] = .string(value)
            }
        }
        var object: [String: JSONValue] = [
            "method": .string(method),
            "path": .string(path),
            "headers": .object(fields),
        ]
        if let route { object["route"] = .string(route) }
        if let query { object["query"] = .string(query) }
        return .object(object)
    }
}
