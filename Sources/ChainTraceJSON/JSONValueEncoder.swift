/// Why a value could not be turned into a ``JSONValue``.
public struct JSONValueEncodingError: Error, Sendable, CustomStringConvertible {
    /// Where in the value the problem is, as coding keys joined by dots.
    public var path: String
    /// What went wrong.
    public var message: String

    public var description: String {
        path.isEmpty ? message : "\(message) at \(path)"
    }
}

/// Encodes `Encodable` values straight into ``JSONValue`` trees (no text in between).
enum JSONValueEncoder {
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        guard let result = root.value else {
            throw JSONValueEncodingError(path: "", message: "the value encoded nothing")
        }
        return result
    }

    /// A slot in the tree being built; containers fill it in place.
    final class Node {
        enum Content {
            case empty
            case leaf(JSONValue)
            case array([Node])
            case object([String: Node])
        }

        var content: Content = .empty

        var value: JSONValue? {
            switch content {
            case .empty: nil
            case .leaf(let value): value
            case .array(let nodes): .array(nodes.map { $0.value ?? .null })
            case .object(let members): .object(members.compactMapValues(\.value))
            }
        }

        func child(forKey key: String) -> Node {
            var members: [String: Node]
            if case .object(let existing) = content { members = existing } else { members = [:] }
            if let node = members[key] { return node }
            // Emptied first, so that `members` is the dictionary's only reference and grows in place: adding to
            // it while `content` still held it copied every member at every key.
            content = .empty
            let node = Node()
            members[key] = node
            content = .object(members)
            return node
        }

        func appendChild() -> Node {
            var nodes: [Node]
            if case .array(let existing) = content { nodes = existing } else { nodes = [] }
            content = .empty  // as in `child(forKey:)`: the array grows in place
            let node = Node()
            nodes.append(node)
            content = .array(nodes)
            return node
        }

        var count: Int {
            if case .array(let nodes) = content { return nodes.count }
            return 0
        }
    }

    struct TreeEncoder: Encoder, SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object = node.content {} else { node.content = .object([:]) }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = node.content {} else { node.content = .array([]) }
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        private func set(_ value: JSONValue) { node.content = .leaf(value) }
        private func number(_ value: Double) throws {
            guard value.isFinite else {
                throw JSONValueEncodingError(
                    path: codingPath.map(\.stringValue).joined(separator: "."),
                    message: "JSON cannot hold the non-finite number \(value)"
                )
            }
            set(.double(value))
        }

        func encodeNil() throws { set(.null) }
        func encode(_ value: Bool) throws { set(.bool(value)) }
        func encode(_ value: String) throws { set(.string(value)) }
        func encode(_ value: Double) throws { try number(value) }
        func encode(_ value: Float) throws { try number(Double(value)) }
        func encode(_ value: Int) throws { set(.integer(Int64(value))) }
        func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
        func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
        func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
        func encode(_ value: Int64) throws { set(.integer(value)) }
        func encode(_ value: UInt) throws { try unsigned(UInt64(value)) }
        func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
        func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
        func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
        func encode(_ value: UInt64) throws { try unsigned(value) }
        func encode<T: Encodable>(_ value: T) throws {
            try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
        }

        private func unsigned(_ value: UInt64) throws {
            if let exact = Int64(exactly: value) { set(.integer(exact)) } else { set(.double(Double(value))) }
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func encoder(for key: Key) -> TreeEncoder {
            TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        }

        mutating func encodeNil(forKey key: Key) throws { try encoder(for: key).encodeNil() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try value.encode(to: encoder(for: key))
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return }
            try value.encode(to: encoder(for: key))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            encoder(for: key).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder(for: key).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            TreeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(for: key) }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.count }

        private func nextEncoder() -> TreeEncoder {
            TreeEncoder(node: node.appendChild(), codingPath: codingPath)
        }

        mutating func encodeNil() throws { try nextEncoder().encodeNil() }
        mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: nextEncoder()) }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            nextEncoder().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { nextEncoder().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { nextEncoder() }
    }
}
